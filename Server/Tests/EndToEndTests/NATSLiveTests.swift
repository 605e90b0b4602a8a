// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import NATSClient
import NIOCore
import Testing
import VettIDAPI
import VettIDCore
import VettIDCrypto
import VettIDMessaging
import VettIDServer
import VettIDTestSupport

/// Issued NATS tokens against a real nats-server in operator mode: nats-server itself enforces each member's
/// space and every revocation.
@Suite(.enabled(if: NATSLive.isAvailable, "nats-server is not installed"), .timeLimit(.minutes(3)))
struct NATSLiveTests {
    @Test @MainActor func membersCannotReachEachOthersSpaces() async throws {
        try await NATSLive.with { live in
            let alice = try await live.member("nats-alice@example.com")
            let bob = try await live.member("nats-bob@example.com")
            let aliceApp = try await live.connect(try await alice.token(.app))
            let bobVault = try await live.connect(try await bob.token(.vault))
            let bobRequests = try bobVault.subscribe(to: "OwnerSpace.\(bob.userGUID).forVault.>")
            try await bobVault.flush()

            // Publishing into Bob's space: nats-server refuses it and Bob's vault never sees it.
            let publishRefused = awaitEvent(aliceApp) { $0.errorCode == .permissionsViolation }
            try aliceApp.publish("intrusion", to: "OwnerSpace.\(bob.userGUID).forVault.execute")
            try await aliceApp.flush()
            #expect(try await publishRefused.value != nil, "nats-server reports the publish as a permissions violation")

            // Subscribing to Bob's answers: refused too.
            let subscribeRefused = awaitEvent(aliceApp) { $0.errorCode == .permissionsViolation }
            _ = try aliceApp.subscribe(to: "OwnerSpace.\(bob.userGUID).forApp.>")
            try await aliceApp.flush()
            #expect(try await subscribeRefused.value != nil)
            // Nor can an app token listen on its own vault's subjects.
            let ownVaultRefused = awaitEvent(aliceApp) { $0.errorCode == .permissionsViolation }
            _ = try aliceApp.subscribe(to: "OwnerSpace.\(alice.userGUID).forVault.>")
            try await aliceApp.flush()
            #expect(try await ownVaultRefused.value != nil)

            // Bob's own app reaches Bob's vault; the intrusion never arrived.
            let bobApp = try await live.connect(try await bob.token(.app))
            try bobApp.publish("hello", to: "OwnerSpace.\(bob.userGUID).forVault.execute")
            try await bobApp.flush()
            var iterator = bobRequests.makeAsyncIterator()
            let first = try #require(await iterator.next())
            #expect(first.payloadString == "hello")
            #expect(aliceApp.isConnected, "a permissions violation is not fatal")
            for client in [aliceApp, bobVault, bobApp] { await client.close() }
        }
    }

    @Test @MainActor func requestReplyWorksInsideTheMembersSpaceThroughItsInbox() async throws {
        try await NATSLive.with(workers: 0) { live in
            let member = try await live.member("nats-inbox@example.com")
            let namespace = try VaultNamespace(userGUID: member.userGUID)
            let vault = try await live.connect(try await member.token(.vault))
            let requests = try vault.subscribe(to: namespace.forVaultWildcard)
            try await vault.flush()
            let responder = Task {
                for await request in requests {
                    guard let reply = request.replyTo else { continue }
                    try vault.publish("pong:" + request.payloadString, to: reply)
                }
            }
            let app = try await live.connect(try await member.token(.app), inboxPrefix: namespace.appInboxPrefix)
            let answer = try await app.request("ping", to: namespace.forVault(.status), timeout: .seconds(5))
            #expect(answer.payloadString == "pong:ping")
            #expect(answer.subject.hasPrefix(namespace.appInboxPrefix + "."))
            responder.cancel()
            await app.close()
            await vault.close()
        }
    }

    @Test(arguments: [false, true]) @MainActor
    func aRevokedTokenIsCutOffAndStaysOutAfterARestart(postgres: Bool) async throws {
        guard !postgres || ProcessInfo.processInfo.environment["VETTID_TEST_DATABASE_URL"] != nil else { return }
        try await NATSLive.with(postgres: postgres) { live in
            let member = try await live.member("nats-revoke@example.com")
            let revokedToken = try await member.token(.app, deviceID: "lost-phone")
            let keptToken = try await member.token(.app, deviceID: "new-phone")
            let revokedClient = try await live.connect(revokedToken)
            let keptClient = try await live.connect(keptToken)

            let cutOff = awaitEvent(revokedClient) { event in
                if case .disconnected = event { true } else if case .closed = event { true } else { false }
            }
            let response = try await member.revoke(revokedToken.tokenId)
            #expect(response.status == .revoked)
            let event = try #require(try await cutOff.value, "nats-server cuts the revoked client off")
            #expect(event.errorCode == .authenticationRevoked || event.errorCode == .authorizationViolation)
            await revokedClient.close()

            // It cannot come back: nats-server refuses the credentials.
            await #expect(throws: NATSError.self) {
                _ = try await live.connect(revokedToken, reconnect: .disabled)
            }
            #expect(keptClient.isConnected, "the member's other token is unaffected")
            await keptClient.close()

            // The full resolver persisted the update: after a restart the revoked token is still refused.
            let restarted = try await live.nats.restarted()
            defer { restarted.stop() }
            await #expect(throws: NATSError.self) {
                _ = try await live.connect(revokedToken, reconnect: .disabled)
            }
            let again = try await live.connect(keptToken, reconnect: .disabled)
            #expect(again.isConnected)
            await again.close()
        }
    }

    @Test @MainActor func workerCredentialsOnlySubscribeInTheQueueGroup() async throws {
        try await NATSLive.with(workers: 0) { live in
            let now = Int64(Date().timeIntervalSince1970)
            let user = try live.server.components.natsTrust.userCredentials(
                name: "worker", permissions: .worker, issuedAt: now, expiresAt: now + 60)
            let worker = try NATSClient(
                configuration: .init(servers: [live.nats.url], auth: .jwt(user.jwt, seed: user.seed)))
            try await worker.connect()
            let refused = awaitEvent(worker) { $0.errorCode == .permissionsViolation }
            _ = try worker.subscribe(to: VaultNamespace.allForVault)
            try await worker.flush()
            #expect(try await refused.value != nil, "outside the vault-workers queue group nats-server refuses it")
            let allowed = awaitEvent(worker, timeout: .seconds(1)) { $0.errorCode == .permissionsViolation }
            _ = try worker.subscribe(to: VaultNamespace.allForVault, queue: VaultNamespace.workerQueueGroup)
            try await worker.flush()
            #expect(try await allowed.value == nil)
            await worker.close()
        }
    }

    @Test @MainActor func tokensWorkOverTLS() async throws {
        try await NATSLive.with(tls: true) { live in
            #expect(live.nats.url.hasPrefix("tls://"))
            let member = try await live.member("nats-tls@example.com")
            let namespace = try VaultNamespace(userGUID: member.userGUID)
            let vault = try await live.connect(try await member.token(.vault))
            let inbound = try vault.subscribe(to: namespace.forVaultWildcard)
            try await vault.flush()
            let app = try await live.connect(try await member.token(.app))
            try app.publish("over tls", to: namespace.forVault(.execute))
            try await app.flush()
            var iterator = inbound.makeAsyncIterator()
            #expect(await iterator.next()?.payloadString == "over tls")
            await app.close()
            await vault.close()
        }
    }

    @Test @MainActor func theBackendsWorkerAnswersStatusHandlersAndMalformedRequestsAcrossARestart() async throws {
        try await NATSLive.with(workers: 2) { live in
            let member = try await live.member("nats-worker@example.com")
            let namespace = try VaultNamespace(userGUID: member.userGUID)
            for worker in live.server.components.vaultWorkers { try await worker.waitUntilReady() }
            let app = try await live.connect(try await member.token(.app), inboxPrefix: namespace.appInboxPrefix)

            func ask(_ message: VaultMessage) async throws -> VaultResponse {
                let reply = try await app.request(
                    ByteBuffer(bytes: message.encoded()), to: namespace.forVault(message.type), timeout: .seconds(5))
                return try VaultResponse.decode(reply.payload.readableBytesView)
            }
            guard case .statusResponse(let id, let status, _) = try await ask(.statusRequest(id: "s1", timestamp: 1))
            else {
                Issue.record("no status response")
                return
            }
            #expect(id == "s1")
            #expect(status.userGUID == member.userGUID)
            #expect(
                status.vaultStatus == "not_enrolled", "the worker reads the member's real vault state from the store")
            #expect(status.handlers.contains("echo"))

            let echoed = try await ask(
                .executeHandler(id: "e1", handlerID: "echo", payload: .string("hi"), timestamp: 1))
            #expect(
                echoed
                    == .handlerResult(
                        requestID: "e1", handlerID: "echo", result: .success(.string("hi")), timestamp: echoed.timestamp
                    ))
            let unknown = try await ask(.executeHandler(id: "e2", handlerID: "launch", payload: .null, timestamp: 1))
            guard case .handlerResult(_, _, .failure(let failure), _) = unknown else {
                Issue.record("an unknown handler is not an error result: \(unknown)")
                return
            }
            #expect(failure.code == .unknownHandler)

            // A malformed request gets an error response; the worker keeps serving.
            let malformed = try await app.request("{not json", to: namespace.forVault(.execute), timeout: .seconds(5))
            guard case .error(_, let error, _) = try VaultResponse.decode(malformed.payload.readableBytesView) else {
                Issue.record("no error response to a malformed request")
                return
            }
            #expect(error.code == .malformedJSON)

            // nats-server restarts: the app's client and the workers reconnect and resubscribe.
            let reconnected = awaitEvent(app, timeout: .seconds(15)) {
                if case .reconnected = $0 { true } else { false }
            }
            let restarted = try await live.nats.restarted()
            defer { restarted.stop() }
            #expect(try await reconnected.value != nil)
            // Up to 120 s (50 requests of up to 5 s each could run into the suite's 3-minute limit anyway).
            var attempt = 0
            let answered = await eventually(timeout: .seconds(120), poll: .milliseconds(100)) {
                attempt += 1
                let response = try? await ask(.statusRequest(id: "after-\(attempt)", timestamp: 1))
                return response?.requestID == "after-\(attempt)"
            }
            #expect(answered, "the workers did not answer within 120 s of the restart")
            await app.close()
        }
    }
}

extension VaultResponse {
    var timestamp: Int64 {
        switch self {
        case .handlerResult(_, _, _, let time), .statusResponse(_, _, let time), .eventTypes(_, _, let time),
            .error(_, _, let time):
            time
        }
    }
}
