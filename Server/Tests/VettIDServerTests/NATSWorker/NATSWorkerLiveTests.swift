// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Logging
import NATSClient
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import Testing
import VettIDCore
import VettIDCrypto
import VettIDMessaging
import VettIDTestSupport

@testable import VettIDServer

/// The vault worker against a real nats-server in operator mode: the worker connects with
/// `NatsPermissionSet.worker`, apps with `NatsPermissionSet.forClient(.app, …)` and their member inbox.
@Suite(.enabled(if: WorkerTestNATS.isAvailable, "nats-server is not installed"), .timeLimit(.minutes(2)))
struct NATSWorkerLiveTests {
    typealias Support = WorkerTestSupport

    /// Counts how often the worker minted credentials (once per connect).
    final class MintCounter: Sendable {
        private let count = NIOLockedValueBox(0)
        func increment() { count.withLockedValue { $0 += 1 } }
        var value: Int { count.withLockedValue { $0 } }
    }

    static let fastReconnect = NATSReconnectPolicy(
        maxAttemptsPerServer: nil, wait: .milliseconds(100), jitter: .milliseconds(50), maxWait: .milliseconds(500))

    func worker(
        _ server: WorkerTestNATS, id: String, concurrency: Int = 64, maxPayloadBytes: Int = 64 * 1024,
        status: @escaping VaultRequestProcessor.StatusLookup = Support.activeStatus, mints: MintCounter = MintCounter(),
        logger: Logger? = nil
    ) throws -> VaultWorker {
        VaultWorker(
            configuration: .init(
                servers: [server.url], concurrency: concurrency, maxPayloadBytes: maxPayloadBytes, instanceID: id,
                reconnect: Self.fastReconnect, drainTimeout: .seconds(5)),
            credentials: {
                mints.increment()
                return try VaultWorkerPool.credentials(server.trust)()
            },
            registry: try Support.registry(status: status), status: status, clock: Support.fixedClock(),
            logger: logger ?? Logger(label: "vault-worker", factory: { _ in SwiftLogNoOpLogHandler() }))
    }

    func app(_ server: WorkerTestNATS, _ namespace: VaultNamespace) async throws -> NATSClient {
        let user = try server.user(NatsPermissionSet.forClient(.app, in: namespace), name: "app")
        let client = try NATSClient(
            configuration: .init(
                servers: [server.url], auth: .jwt(user.jwt, seed: user.seed), inboxPrefix: namespace.appInboxPrefix,
                reconnect: Self.fastReconnect))
        try await client.connect()
        return client
    }

    /// A nats-server, a started worker and an app of the member of `namespace`, for `body`; afterwards the app is
    /// closed, the worker stopped and nats-server stopped.
    func serving(
        _ namespace: VaultNamespace, id: String, concurrency: Int = 64, maxPayloadBytes: Int = 64 * 1024,
        status: @escaping VaultRequestProcessor.StatusLookup = Support.activeStatus, mints: MintCounter = MintCounter(),
        _ body: (WorkerTestNATS, VaultWorker, NATSClient) async throws -> Void
    ) async throws {
        let server = try await WorkerTestNATS()
        defer { server.cleanUp() }
        let worker = try worker(
            server, id: id, concurrency: concurrency, maxPayloadBytes: maxPayloadBytes, status: status, mints: mints)
        try await worker.start()
        let client = try await app(server, namespace)
        do {
            try await body(server, worker, client)
        } catch {
            await client.close()
            await worker.stop()
            throw error
        }
        await client.close()
        await worker.stop()
    }

    /// A worker of a nats-server that is gone (its credentials are never asked for).
    func unreachableWorker(retryOnFailedConnect: Bool = false) async throws -> VaultWorker {
        let server = try await WorkerTestNATS()
        server.cleanUp()
        return VaultWorker(
            configuration: .init(
                servers: [server.url], reconnect: Self.fastReconnect, retryOnFailedConnect: retryOnFailedConnect),
            credentials: { throw LocalNATSServer.Failure(description: "never asked") },
            registry: try VaultHandlerRegistry([EchoVaultHandler(), VaultInfoHandler(status: Support.activeStatus)]),
            status: Support.activeStatus,
            logger: Logger(label: "vault-worker", factory: { _ in SwiftLogNoOpLogHandler() }))
    }

    /// Sends `body` to the member's `forVault.{type}` with request/reply and decodes the answer.
    func ask(
        _ client: NATSClient, _ namespace: VaultNamespace, _ type: VaultMessageType, _ body: [UInt8],
        timeout: Duration = .seconds(5)
    ) async throws -> VaultResponse {
        let reply = try await client.request(ByteBuffer(bytes: body), to: namespace.forVault(type), timeout: timeout)
        #expect(reply.subject.hasPrefix(namespace.appInboxPrefix + "."), "answered on the member's own inbox")
        return try VaultResponse.decode(reply.payload.readableBytesView)
    }

    /// The next message of `subscription`, or `nil` after `timeout`.
    func next(_ subscription: NATSSubscription, timeout: Duration = .seconds(5)) async -> NATSMessage? {
        await withTaskGroup(of: NATSMessage?.self) { group in
            group.addTask {
                for await message in subscription { return message }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    // MARK: Queue group

    @Test func twoWorkersShareTheQueueGroupAndAnswerEachRequestExactlyOnce() async throws {
        let server = try await WorkerTestNATS()
        defer { server.cleanUp() }
        let first = try worker(server, id: "worker-a")
        let second = try worker(server, id: "worker-b")
        try await first.start()
        try await second.start()

        // An observer counts every answer published into any member's forApp space.
        let observerUser = try server.user(
            NatsPermissionSet(publish: [], subscribe: ["OwnerSpace.*.forApp.>"]), name: "observer")
        let observer = try NATSClient(
            configuration: .init(servers: [server.url], auth: .jwt(observerUser.jwt, seed: observerUser.seed)))
        try await observer.connect()
        let answers = try observer.subscribe(to: "OwnerSpace.*.forApp.>")
        try await observer.flush()
        let counting = Task {
            var subjects: [String] = []
            for await message in answers { subjects.append(message.subject) }
            return subjects
        }

        let members = try (0..<4).map { _ in try Support.namespace() }
        var apps: [NATSClient] = []
        for member in members { apps.append(try await app(server, member)) }
        let responses = try await withThrowingTaskGroup(of: (String, VaultResponse).self) { group in
            for index in 0..<200 {
                let member = index % members.count
                let (client, namespace) = (apps[member], members[member])
                group.addTask {
                    let id = "req-\(index)"
                    let body = Support.execute("whoami", .null, id: id)
                    return (id, try await ask(client, namespace, .execute, body, timeout: .seconds(20)))
                }
            }
            var all: [(String, VaultResponse)] = []
            for try await response in group { all.append(response) }
            return all
        }
        #expect(responses.count == 200)
        #expect(Set(responses.map(\.0)).count == 200)
        for (id, response) in responses {
            guard case .handlerResult(id, "whoami", .success(let result), _) = response else {
                Issue.record("request \(id) got \(response)")
                continue
            }
            let index = Int(id.dropFirst(4))!
            #expect(
                result["user_guid"] == .string(members[index % members.count].userGUID),
                "each app hears only about itself")
        }

        try await Task.sleep(for: .milliseconds(300))
        try await observer.flush()
        answers.unsubscribe()
        let published = await counting.value
        #expect(published.count == 200, "every request was answered exactly once, by one worker")
        #expect(Set(published).count == 200)

        let (a, b) = (first.statistics, second.statistics)
        #expect(a.answered + b.answered == 200)
        #expect(a.answered > 0 && b.answered > 0, "the queue group spread the requests: \(a.answered) / \(b.answered)")
        #expect(a.errors + b.errors == 0)
        #expect(a.received + b.received == 200)

        for client in apps { await client.close() }
        await observer.close()
        await first.stop()
        await second.stop()
    }

    // MARK: Request/reply from the app

    @Test func anAppGetsStatusEchoVaultInfoAndEventTypesThroughItsInbox() async throws {
        let namespace = try Support.namespace()
        try await serving(
            namespace, id: "worker-s",
            status: { guid in
                guid == namespace.userGUID ? ("active", 12) : ("not_enrolled", nil)
            }
        ) { _, worker, client in
            try await worker.waitUntilReady()
            let broadcast = try client.subscribe(to: namespace.eventTypes)
            let responses = try client.subscribe(to: namespace.response(to: "status"))
            try await client.flush()

            let status = try await ask(client, namespace, .status, Support.status(id: "st-1"))
            #expect(
                status
                    == .statusResponse(
                        requestID: "st-1",
                        status: VaultWorkerStatus(
                            vaultStatus: "active", userGUID: namespace.userGUID, transactionKeysRemaining: 12,
                            workerID: "worker-s",
                            handlers: ["echo", "vault.info", "explode", "refuse", "slow", "whoami"]),
                        timestamp: Support.timestamp))

            let payload = JSONValue.object([
                ("greeting", .string("hello vault")), ("list", .array([.integer(1), .bool(true)])),
            ])
            let echo = try await ask(client, namespace, .execute, Support.execute("echo", payload, id: "ec-1"))
            #expect(
                echo
                    == .handlerResult(
                        requestID: "ec-1", handlerID: "echo", result: .success(payload), timestamp: Support.timestamp))

            // vault.info is sealed-only: over plaintext NATS it is refused (the sealed path is SealedSessionLiveTests').
            let info = try await ask(client, namespace, .execute, Support.execute("vault.info", .null, id: "in-1"))
            guard case .handlerResult("in-1", "vault.info", .failure(let refusal), _) = info else {
                Issue.record("expected a refused vault.info, got \(info)")
                return
            }
            #expect(refusal.code == .sealedSessionRequired)

            let types = try await ask(client, namespace, .eventTypes, Support.eventTypes(id: "et-1"))
            guard case .eventTypes("et-1", let list, _) = types else {
                Issue.record("expected event types, got \(types)")
                return
            }
            #expect(list.map(\.handlerID) == ["echo", "vault.info", "explode", "refuse", "slow", "whoami"])
            let copy = try #require(await next(broadcast), "event types are also published on the member's eventTypes")
            #expect(try VaultResponse.decode(copy.payload.readableBytesView) == types)

            // Without a reply subject the answer goes to the member's status response subject.
            try client.publish(Support.status(id: "st-2"), to: namespace.forVault(.status))
            let answer = try #require(await next(responses))
            #expect(try VaultResponse.decode(answer.payload.readableBytesView).requestID == "st-2")
        }
    }

    @Test func malformedRequestsGetErrorResponsesAndTheWorkerKeepsAnswering() async throws {
        let namespace = try Support.namespace()
        try await serving(namespace, id: "worker-m", maxPayloadBytes: 1024) { _, worker, client in
            let garbage = try await ask(client, namespace, .execute, Array("{not json".utf8))
            #expect(garbage.typeName == "error")
            guard case .error(nil, let malformed, _) = garbage else { return }
            #expect(malformed.code == .malformedJSON)

            let mismatch = try await ask(client, namespace, .execute, Support.status(id: "mm-1"))
            guard case .error("mm-1", let typeError, _) = mismatch else {
                Issue.record("expected an error, got \(mismatch)")
                return
            }
            #expect(typeError.code == .typeMismatch)

            let big = try await ask(
                client, namespace, .execute, Support.execute("echo", .string(String(repeating: "x", count: 2000))))
            guard case .error(_, let sizeError, _) = big else {
                Issue.record("expected an error, got \(big)")
                return
            }
            #expect(sizeError.code == .payloadTooLarge)

            let failing = try await ask(client, namespace, .execute, Support.execute("explode", .null, id: "ex-1"))
            guard case .handlerResult("ex-1", "explode", .failure(let handlerError), _) = failing else {
                Issue.record("expected a failed handler result, got \(failing)")
                return
            }
            #expect(handlerError.code == .handlerFailed)

            let echo = try await ask(
                client, namespace, .execute, Support.execute("echo", .string("still here"), id: "ok-1"))
            #expect(
                echo
                    == .handlerResult(
                        requestID: "ok-1", handlerID: "echo", result: .success(.string("still here")),
                        timestamp: Support.timestamp))
            let statistics = worker.statistics
            #expect(statistics.answered == 5)
            #expect(statistics.errors == 4)
            #expect(worker.isConnected)
        }
    }

    @Test func aReplySubjectInAnotherMembersSpaceIsNotPublishedTo() async throws {
        let server = try await WorkerTestNATS()
        defer { server.cleanUp() }
        let (attacker, victim) = (try Support.namespace(), try Support.namespace())
        let worker = try worker(server, id: "worker-r")
        try await worker.start()
        let attackerApp = try await app(server, attacker)
        let victimApp = try await app(server, victim)
        let victimInbox = try victimApp.subscribe(to: victim.forAppWildcard)
        let attackerResponses = try attackerApp.subscribe(to: attacker.response(to: "execute"))
        try await victimApp.flush()
        try await attackerApp.flush()

        try attackerApp.publish(
            Support.execute("whoami", .null, id: "evil-1"), to: attacker.forVault(.execute),
            replyTo: "\(victim.appInboxPrefix).stolen.1")
        try await attackerApp.flush()

        let answer = try #require(await next(attackerResponses), "the answer goes to the sender's own response subject")
        let response = try VaultResponse.decode(answer.payload.readableBytesView)
        guard case .handlerResult("evil-1", "whoami", .success(let result), _) = response else {
            Issue.record("expected whoami, got \(response)")
            return
        }
        #expect(result["user_guid"] == .string(attacker.userGUID))
        #expect(await next(victimInbox, timeout: .milliseconds(500)) == nil, "nothing reached the other member's space")

        await attackerApp.close()
        await victimApp.close()
        await worker.stop()
    }

    // MARK: Concurrency and lifecycle

    @Test func aSlowHandlerDoesNotBlockOtherRequests() async throws {
        let namespace = try Support.namespace()
        try await serving(namespace, id: "worker-c", concurrency: 4) { _, worker, client in
            let slow = Task {
                try await ask(
                    client, namespace, .execute,
                    Support.execute("slow", .object([("sleep_ms", .integer(8000))]), id: "slow-1"),
                    timeout: .seconds(20))
            }
            try await Task.sleep(for: .milliseconds(100))
            for index in 0..<20 {
                let echo = try await ask(
                    client, namespace, .execute, Support.execute("echo", .integer(Int64(index)), id: "fast-\(index)"))
                #expect(echo.isSuccess)
            }
            // Ordering, not timing: all 20 were answered while the slow handler was still running. A fast handler's
            // count drops just after its answer is published, so the count is awaited, not read once.
            #expect(
                await eventually(timeout: .seconds(5), poll: .milliseconds(5)) { worker.statistics.inFlight == 1 },
                "fast requests were answered while the slow one ran")
            let slowAnswer = try await slow.value
            #expect(slowAnswer.requestID == "slow-1" && slowAnswer.isSuccess)
        }
    }

    /// Answers whether it ran on a NIO event loop thread.
    struct EventLoopProbe: VaultHandler {
        let id = "on-event-loop"
        let description = "Whether the handler ran on an event loop."

        func handle(_ payload: JSONValue, context: VaultHandlerContext) async throws -> JSONValue {
            .bool(MultiThreadedEventLoopGroup.currentEventLoop != nil)
        }
    }

    @Test(arguments: [VaultWorker.LaneExecutor.connectionEventLoop, .globalConcurrent])
    func handlersRunWhereTheLaneExecutorSays(_ lanes: VaultWorker.LaneExecutor) async throws {
        let server = try await WorkerTestNATS()
        defer { server.cleanUp() }
        let namespace = try Support.namespace()
        let worker = VaultWorker(
            configuration: .init(servers: [server.url], reconnect: Self.fastReconnect, laneExecutor: lanes),
            credentials: VaultWorkerPool.credentials(server.trust),
            registry: try VaultHandlerRegistry([EventLoopProbe()]),
            status: Support.activeStatus,
            logger: Logger(label: "vault-worker", factory: { _ in SwiftLogNoOpLogHandler() }))
        try await worker.start()
        let client = try await app(server, namespace)
        var answers: [VaultResponse] = []
        for index in 0..<5 {
            answers.append(
                try await ask(
                    client, namespace, .execute, Support.execute("on-event-loop", .null, id: "probe-\(index)")))
        }
        await client.close()
        await worker.stop()
        for answer in answers {
            guard case .handlerResult(_, "on-event-loop", .success(.bool(let onLoop)), _) = answer else {
                Issue.record("expected the probe's answer, got \(answer)")
                continue
            }
            #expect(onLoop == (lanes == .connectionEventLoop))
        }
    }

    @Test func stopAnswersTheRequestsInFlightFirst() async throws {
        let namespace = try Support.namespace()
        try await serving(namespace, id: "worker-d") { _, worker, client in
            let slow = Task {
                try await ask(
                    client, namespace, .execute,
                    Support.execute("slow", .object([("sleep_ms", .integer(700))]), id: "drain-1"))
            }
            try #require(
                await eventually(timeout: .seconds(60), poll: .milliseconds(10)) { worker.statistics.inFlight > 0 },
                "the slow request never reached the worker")
            await worker.stop()
            let answer = try await slow.value
            #expect(answer.requestID == "drain-1" && answer.isSuccess)
            #expect(!worker.isConnected)
            let error = await #expect(throws: VaultWorkerError.self) { try await worker.waitUntilReady() }
            #expect(error?.code == .stopped)
            let again = await #expect(throws: VaultWorkerError.self) { try await worker.start() }
            #expect(again?.code == .alreadyStarted)
            await worker.stop()  // idempotent (and `serving` stops it once more)
        }
    }

    @Test func runServesUntilCancelled() async throws {
        let server = try await WorkerTestNATS()
        defer { server.cleanUp() }
        let namespace = try Support.namespace()
        let worker = try worker(server, id: "worker-run")
        let running = Task { try await worker.run() }
        try await worker.waitUntilReady()
        let client = try await app(server, namespace)
        #expect(try await ask(client, namespace, .status, Support.status()).isSuccess)
        running.cancel()
        try await running.value
        #expect(!worker.isConnected)
        await client.close()
    }

    @Test func startFailsWhenNATSServerIsUnreachable() async throws {
        let worker = try await unreachableWorker()
        await #expect(throws: (any Error).self) { try await worker.start() }
        await #expect(throws: (any Error).self) { try await worker.waitUntilReady() }
        #expect(!worker.isConnected)
    }

    @Test func stoppingAWorkerThatIsStillRetryingItsFirstConnectAbandonsIt() async throws {
        // start() keeps retrying; stop() makes it throw `stopped` and returns once the worker is stopped.
        let worker = try await unreachableWorker(retryOnFailedConnect: true)
        let starting = Task { try await worker.start() }
        let waiting = Task { try await worker.waitUntilReady() }
        try await Task.sleep(for: .milliseconds(300))
        await worker.stop()
        let error = await #expect(throws: VaultWorkerError.self) { try await starting.value }
        #expect(error?.code == .stopped)
        let notReady = await #expect(throws: VaultWorkerError.self) { try await waiting.value }
        #expect(notReady?.code == .stopped)

        // run() cancelled while retrying returns without an error.
        let service = try await unreachableWorker(retryOnFailedConnect: true)
        let running = Task { try await service.run() }
        try await Task.sleep(for: .milliseconds(300))
        running.cancel()
        try await running.value
        #expect(!service.isConnected)
    }

    @Test func theWorkerKeepsServingAfterNATSServerRestarts() async throws {
        let namespace = try Support.namespace()
        let mints = MintCounter()
        try await serving(namespace, id: "worker-restart", mints: mints) { server, worker, client in
            #expect(try await ask(client, namespace, .status, Support.status(id: "before")).isSuccess)
            #expect(mints.value == 1)

            try await server.restart()

            // Both sides reconnect on their own; the worker's subscription is restored by nats-client.
            var answered: VaultResponse?
            let answeredInTime = await eventually(timeout: .seconds(15), poll: .milliseconds(100)) {
                let body = Support.execute("echo", .string("after"), id: "after")
                answered = try? await ask(client, namespace, .execute, body, timeout: .seconds(1))
                return answered != nil
            }
            try #require(
                answeredInTime, "the worker did not answer within 15 s of the restart; log: \(server.log.suffix(1500))")
            let response = try #require(answered)
            #expect(
                response
                    == .handlerResult(
                        requestID: "after", handlerID: "echo", result: .success(.string("after")),
                        timestamp: Support.timestamp))
            #expect(mints.value >= 2, "a fresh JWT was minted for the reconnect")
            #expect(worker.statistics.reconnects >= 1)
            #expect(worker.isConnected)

            // And it keeps going.
            for index in 0..<10 {
                #expect(try await ask(client, namespace, .status, Support.status(id: "more-\(index)")).isSuccess)
            }
        }
    }
}
