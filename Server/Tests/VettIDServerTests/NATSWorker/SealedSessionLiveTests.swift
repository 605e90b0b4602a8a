// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import HummingbirdTesting
import Logging
import NATSClient
import NIOCore
import Testing
import VettIDCore
import VettIDCrypto
import VettIDMessaging
import VettIDSession
import VettIDTestSupport

@testable import VettIDServer

/// Sealed sessions through the vault workers and a real nats-server (docs/protocol.md §7.3): devices enrolled through
/// the HTTP enrollment, the app side driven by `SessionInitiator` and `SealedSessionClient`.
@Suite(.enabled(if: WorkerTestNATS.isAvailable, "nats-server is not installed"), .timeLimit(.minutes(3)))
struct SealedSessionLiveTests {
    /// An enrolled device as the app holds it.
    struct Phone: Sendable {
        let device: GateTest.Device
        let package: VaultTest.Package
        var namespace: VaultNamespace { try! VaultNamespace(userGUID: package.userGUID) }
    }

    /// One server (its store, keys and sealed sessions), a nats-server and `workers` workers of the server's process.
    struct Rig: Sendable {
        let app: TestApp
        let nats: WorkerTestNATS
        let workers: [VaultWorker]

        var sessions: VaultSessionService { app.components.vaultSessions }

        /// The vault identity keys an app pins (what `/vault/session-keys` answers).
        var pinned: [String: P256.Signing.PublicKey] {
            Dictionary(
                uniqueKeysWithValues: app.components.signingKeys.vaultSessionPublicKeys(now: app.clock.now()).keys.map {
                    ($0.kid, $0.key)
                })
        }

        /// An app's NATS connection for `phone`'s member.
        func connect(_ phone: Phone) async throws -> NATSClient {
            let user = try nats.user(NatsPermissionSet.forClient(.app, in: phone.namespace), name: "app")
            let client = try NATSClient(
                configuration: .init(
                    servers: [nats.url], auth: .jwt(user.jwt, seed: user.seed),
                    inboxPrefix: phone.namespace.appInboxPrefix))
            try await client.connect()
            return client
        }

        /// A handshake of `phone` over `client`: the established session, or the refusal thrown.
        func handshake(
            _ phone: Phone, _ client: NATSClient, signer: (any DPoPSigner)? = nil
        ) async throws -> SealedSessionClient {
            let pending = try await initiator(phone, signer: signer).start()
            let reply = try await client.request(
                ByteBuffer(bytes: pending.initBytes), to: phone.namespace.sessionInit, timeout: .seconds(5))
            return try pending.complete(response: Array(reply.payload.readableBytesView), pinnedVaultKeys: pinned)
        }

        func initiator(_ phone: Phone, signer: (any DPoPSigner)? = nil) -> SessionInitiator {
            SessionInitiator(
                memberGUID: phone.package.userGUID, deviceSigner: signer ?? phone.device.signer,
                expectedVaultKID: "vault-session-1")
        }

        /// Sends `request` on the session's route subject and returns the answer's bytes.
        func send(
            _ envelope: [UInt8], for session: SealedSessionClient, of phone: Phone, _ client: NATSClient,
            namespace: VaultNamespace? = nil
        ) async throws -> [UInt8] {
            let subject = (namespace ?? phone.namespace).sealed(route: session.sessionID.route.subjectToken)
            let reply = try await client.request(ByteBuffer(bytes: envelope), to: subject, timeout: .seconds(5))
            return Array(reply.payload.readableBytesView)
        }

        /// A sealed `echo` of `body`: its result.
        func echo(
            _ body: JSONValue, _ session: SealedSessionClient, _ phone: Phone, _ client: NATSClient
        ) async throws -> JSONValue {
            let request = try session.sealRequest(handler: "echo", body: body)
            let answer = try session.openResponse(
                try await send(request.envelope, for: session, of: phone, client), to: request)
            guard case .success(_, let result) = answer else { throw SessionError(.malformedMessage, "\(answer)") }
            return result
        }
    }

    static func worker(
        _ nats: WorkerTestNATS, _ app: TestApp, sessions: VaultSessionService, id: String
    ) throws -> VaultWorker {
        VaultWorker(
            configuration: .init(servers: [nats.url], instanceID: id, drainTimeout: .seconds(5)),
            credentials: VaultWorkerPool.credentials(nats.trust, sealedRoute: sessions.route),
            registry: try VaultHandlerRegistry([EchoVaultHandler(), WorkerTestSupport.RefusingHandler()]),
            status: WorkerTestSupport.activeStatus, clock: app.clock, sessions: sessions,
            logger: Logger(label: "vault-worker", factory: { _ in SwiftLogNoOpLogHandler() }))
    }

    /// A server with `workers` workers sharing its sessions, and `phones` devices enrolled over HTTP.
    func withRig(
        workers count: Int = 1, phones: Int = 1,
        _ body: @escaping @Sendable (Rig, [Phone], any TestClientProtocol) async throws -> Void
    ) async throws {
        let nats = try await WorkerTestNATS()
        defer { nats.cleanUp() }
        try await TestApp.withApp(.sqlite, configuration: VaultTest.configuration()) { client, app in
            var enrolled: [Phone] = []
            for _ in 0..<phones {
                let device = GateTest.Device()
                enrolled.append(Phone(device: device, package: try await client.enroll(device).0))
            }
            let workers = try (0..<count).map {
                try Self.worker(nats, app, sessions: app.components.vaultSessions, id: "worker-\($0)")
            }
            for worker in workers { try await worker.start() }
            do {
                try await body(Rig(app: app, nats: nats, workers: workers), enrolled, client)
            } catch {
                for worker in workers { await worker.stop() }
                throw error
            }
            for worker in workers { await worker.stop() }
        }
    }

    /// The code of a plaintext refusal, or of the error thrown by `operation`.
    func code(_ operation: () async throws -> Void) async -> String? {
        do {
            try await operation()
            return nil
        } catch let error as SessionError {
            return error.code.rawValue
        } catch {
            return "\(error)"
        }
    }

    // MARK: Round trip

    @Test func anEnrolledDeviceRunsAHandshakeAndASealedEchoRoundTrip() async throws {
        try await withRig { rig, phones, _ in
            let phone = phones[0]
            let client = try await rig.connect(phone)
            defer { Task { await client.close() } }
            let session = try await rig.handshake(phone, client)
            #expect(session.vaultKID == "vault-session-1")
            #expect(session.sessionID.route == rig.sessions.route, "the session id names this process")
            for index in 0..<3 {
                let body: JSONValue = .object([("hello", .string("vault")), ("n", .integer(Int64(index)))])
                #expect(try await rig.echo(body, session, phone, client) == body)
            }
            // A handler's typed refusal comes back sealed, with its code.
            let refused = try session.sealRequest(handler: "refuse", body: .null)
            let answer = try session.openResponse(
                try await rig.send(refused.envelope, for: session, of: phone, client), to: refused)
            guard case .failure(refused.id, let error) = answer else {
                Issue.record("expected a sealed failure, got \(answer)")
                return
            }
            #expect(error.code.rawValue == "not_allowed")
            let unknown = try session.sealRequest(handler: "nope", body: .null)
            let unknownAnswer = try session.openResponse(
                try await rig.send(unknown.envelope, for: session, of: phone, client), to: unknown)
            guard case .failure(_, let unknownError) = unknownAnswer else {
                Issue.record("expected unknown_handler, got \(unknownAnswer)")
                return
            }
            #expect(unknownError.code.rawValue == "unknown_handler")
            let statistics = rig.workers[0].statistics
            #expect(statistics.handshakes == 1)
            #expect(statistics.sealedRequests == 5)
            let metrics = String(decoding: rig.app.components.metrics.exposition(), as: UTF8.self)
            #expect(metrics.contains(#"vettid_vault_session_handshakes_total{outcome="ok"} 1"#))
            #expect(metrics.contains(#"vettid_vault_sealed_requests_total{outcome="ok"} 3"#))
            #expect(metrics.contains(#"vettid_vault_sealed_requests_total{outcome="not_allowed"} 1"#))
        }
    }

    // MARK: Refusals

    @Test func forgedUnknownReplayedAndRevokedInitsAreRefusedWithTheirCodes() async throws {
        try await withRig(phones: 2) { rig, phones, _ in
            let (phone, other) = (phones[0], phones[1])
            let client = try await rig.connect(phone)
            defer { Task { await client.close() } }

            // A forged device signature: the init's last byte (inside device_signature) flipped.
            let pending = try await rig.initiator(phone).start()
            var forged = pending.initBytes
            forged[forged.count - 1] ^= 0x01
            let forgedReply = try await client.request(
                ByteBuffer(bytes: forged), to: phone.namespace.sessionInit, timeout: .seconds(5))
            #expect(
                try SessionRefusal(parsing: Array(forgedReply.payload.readableBytesView)).error.code
                    == .badDeviceSignature)

            // Another member's enrolled device key signs correctly but is not a device of this member.
            let refused1 = await code { _ = try await rig.handshake(phone, client, signer: other.device.signer) }
            #expect(refused1 == "unknown_device")

            // The same init twice: the second is a replay.
            let first = try await client.request(
                ByteBuffer(bytes: pending.initBytes), to: phone.namespace.sessionInit, timeout: .seconds(5))
            _ = try pending.complete(
                response: Array(first.payload.readableBytesView), pinnedVaultKeys: rig.pinned)
            let again = try await client.request(
                ByteBuffer(bytes: pending.initBytes), to: phone.namespace.sessionInit, timeout: .seconds(5))
            #expect(
                try SessionRefusal(parsing: Array(again.payload.readableBytesView)).error.code == .handshakeReplay)

            // A revoked device: its open session is dropped at once, and a new handshake is refused.
            let session = try await rig.handshake(phone, client)
            #expect(try await rig.echo(.string("before"), session, phone, client) == .string("before"))
            _ = try await rig.app.components.vaultLifecycle.revoke(
                userID: try #require(UUID(uuidString: phone.package.userGUID)),
                credentialID: phone.package.credentialID, origin: .none)
            let refused2 = await code { _ = try await rig.echo(.string("after"), session, phone, client) }
            #expect(refused2 == "unknown_session")
            let refused3 = await code { _ = try await rig.handshake(phone, client) }
            #expect(refused3 == "unknown_device")
            let metrics = String(decoding: rig.app.components.metrics.exposition(), as: UTF8.self)
            #expect(metrics.contains(#"vettid_vault_session_handshakes_total{outcome="unknown_device"} 2"#))
        }
    }

    @Test func replayedCrossMemberAndExpiredEnvelopesAreRefusedWithTheirCodes() async throws {
        try await withRig(phones: 2) { rig, phones, _ in
            let (phone, other) = (phones[0], phones[1])
            let client = try await rig.connect(phone)
            let otherClient = try await rig.connect(other)
            defer {
                Task {
                    await client.close()
                    await otherClient.close()
                }
            }
            let session = try await rig.handshake(phone, client)
            let request = try session.sealRequest(handler: "echo", body: .string("once"))
            let answer = try session.openResponse(
                try await rig.send(request.envelope, for: session, of: phone, client), to: request)
            #expect(answer == .success(id: request.id, result: .string("once")))

            // The same envelope again: refused in the clear, `replayed`.
            let replayed = try await rig.send(request.envelope, for: session, of: phone, client)
            #expect(try SessionRefusal(parsing: replayed).error.code == .replayed)

            // The envelope sent into another member's subject (by that member's app): no session there.
            let next = try session.sealRequest(handler: "echo", body: .string("elsewhere"))
            let crossed = try await rig.send(
                next.envelope, for: session, of: other, otherClient, namespace: other.namespace)
            #expect(try SessionRefusal(parsing: crossed).error.code == .unknownSession)

            // A day later the session is over.
            rig.app.clock.advance(by: .seconds(86_401))
            let late = try session.seal(
                SessionInnerRequest(
                    id: "late", handler: "echo", body: .null,
                    expiresAtMilliseconds: Int64(rig.app.clock.now().timeIntervalSince1970 * 1000) + 30_000))
            let expired = try await rig.send(late.envelope, for: session, of: phone, client)
            #expect(try SessionRefusal(parsing: expired).error.code == .sessionExpired)
        }
    }

    // MARK: Instances

    @Test func aSessionIsAnsweredByEveryWorkerOfItsProcessAndByNoOtherProcess() async throws {
        try await withRig(workers: 2) { rig, phones, _ in
            let phone = phones[0]
            let client = try await rig.connect(phone)
            defer { Task { await client.close() } }
            let session = try await rig.handshake(phone, client)

            // A second process on the same store and nats-server: its own table and route.
            let otherProcess = VaultWorkerPool.sessions(
                lifecycle: rig.app.components.vaultLifecycle, signingKeys: rig.app.components.signingKeys,
                clock: rig.app.clock, metrics: nil)
            #expect(otherProcess.route != rig.sessions.route)
            let stranger = try Self.worker(rig.nats, rig.app, sessions: otherProcess, id: "worker-other")
            try await stranger.start()

            for index in 0..<40 {
                #expect(try await rig.echo(.integer(Int64(index)), session, phone, client) == .integer(Int64(index)))
            }
            let (a, b) = (rig.workers[0].statistics.sealedRequests, rig.workers[1].statistics.sealedRequests)
            #expect(a + b == 40)
            #expect(a > 0 && b > 0, "both workers of the process answered the session: \(a) / \(b)")
            #expect(stranger.statistics.received == 0, "the other process never saw the session's envelopes")
            #expect(otherProcess.table.count == 0)
            await stranger.stop()
        }
    }

    // MARK: What a subject reader sees

    @Test func aSubscriberOfEverySubjectFindsNoHandlerRequestIDOrPayloadInASealedExchange() async throws {
        try await withRig { rig, phones, _ in
            let phone = phones[0]
            let tapUser = try rig.nats.user(NatsPermissionSet(publish: [], subscribe: [">"]), name: "tap")
            let tap = try NATSClient(
                configuration: .init(servers: [rig.nats.url], auth: .jwt(tapUser.jwt, seed: tapUser.seed)))
            try await tap.connect()
            let everything = try tap.subscribe(to: ">")
            try await tap.flush()
            let captured = Task {
                var bytes: [[UInt8]] = []
                for await message in everything { bytes.append(Array(message.payload.readableBytesView)) }
                return bytes
            }

            let client = try await rig.connect(phone)
            let session = try await rig.handshake(phone, client)
            let secret = "correct horse battery staple 4711"
            let request = try session.sealRequest(handler: "echo", body: .object([("secret", .string(secret))]))
            let answer = try session.openResponse(
                try await rig.send(request.envelope, for: session, of: phone, client), to: request)
            #expect(answer == .success(id: request.id, result: .object([("secret", .string(secret))])))
            await client.close()

            try await Task.sleep(for: .milliseconds(200))
            try await tap.flush()
            everything.unsubscribe()
            let messages = await captured.value
            #expect(messages.count >= 4, "the tap saw the init, the response, the envelope and its answer")
            let all = messages.flatMap { $0 }
            for needle in [secret, "secret", request.id, "\"echo\"", "handler"] {
                #expect(
                    all.firstRange(of: Array(needle.utf8)) == nil, "'\(needle)' appears in the captured bytes")
            }
            await tap.close()
        }
    }

    // MARK: Key rotation

    @Test func afterARotationTheResponseIsSignedByGeneration2AndARefreshedPinnedSetAcceptsIt() async throws {
        try await withRig { rig, phones, _ in
            let phone = phones[0]
            let oldPinned = rig.pinned
            #expect(Set(oldPinned.keys) == ["vault-session-1"])
            // `keys rotate` adds generation 2, active at once.
            let rotated = try rig.app.components.signingKeys.ring.rotated(
                secret: [UInt8](repeating: 7, count: 32), now: UnixSeconds.from(rig.app.clock.now()),
                activationDelay: 0)
            try await rig.app.components.signingKeys.reload(rotated)
            let client = try await rig.connect(phone)
            defer { Task { await client.close() } }

            let pending = try await rig.initiator(phone).start()
            let reply = try await client.request(
                ByteBuffer(bytes: pending.initBytes), to: phone.namespace.sessionInit, timeout: .seconds(5))
            let bytes = Array(reply.payload.readableBytesView)
            let refused4 = await code { _ = try pending.complete(response: bytes, pinnedVaultKeys: oldPinned) }
            #expect(refused4 == "vault_key_not_pinned")
            // The SDK refreshes its pinned set once (GET /vault/session-keys) and checks the same response again.
            let refreshed = rig.pinned
            #expect(Set(refreshed.keys) == ["vault-session-1", "vault-session-2"])
            let session = try pending.complete(response: bytes, pinnedVaultKeys: refreshed)
            #expect(session.vaultKID == "vault-session-2")
            #expect(try await rig.echo(.string("rotated"), session, phone, client) == .string("rotated"))
        }
    }
}
