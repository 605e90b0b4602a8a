// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import NATSClient
import NIOCore
import Testing
import VettIDAPI
import VettIDClient
import VettIDCrypto
import VettIDMessaging
import VettIDServer
import VettIDTestSupport

/// Two backend instances on one PostgreSQL database, each on its own node of a three-node nats-server cluster,
/// driven alternately: sessions, revocations and the vault worker's queue group work across instances and nodes
/// (issue 16, item 2; docs/operations.md, "Scaling out").
@Suite(
    .enabled(if: TwoInstances.isAvailable, "needs nats-server and the test PostgreSQL"), .timeLimit(.minutes(3)),
    .serialized)
struct TwoInstanceClusterTests {
    /// A member registered through `server`, with NATS namespaces.
    @MainActor
    static func member(via server: LiveServer, email: String) async throws -> NATSMember {
        let auth = try await VaultLive.member(baseURL: server.baseURL, email: email)
        let account = try await auth.apiClient.perform { client in
            try await client.createNatsAccount(.init()).ok.body.json
        }
        return NATSMember(auth: auth, userGUID: account.userGuid)
    }

    /// The same member signed in through `server`.
    @MainActor
    static func signIn(_ email: String, via server: LiveServer) async throws -> NATSMember {
        let auth = AuthManager(
            configuration: try .init(baseURL: server.baseURL, store: InMemorySecureStore(), logger: VaultLive.logger))
        try await auth.login(email: email, password: VaultLive.memberPassword)
        let account = try await auth.apiClient.perform { client in
            try await client.createNatsAccount(.init()).ok.body.json
        }
        return NATSMember(auth: auth, userGUID: account.userGuid)
    }

    static func refused(_ token: Components.Schemas.NatsToken, by two: TwoInstances, node: Int) async -> Bool {
        do {
            let client = try await two.connect(token.natsJwt, seed: token.natsSeed, node: node, reconnect: .disabled)
            await client.close()
            return false
        } catch {
            return true
        }
    }

    /// A session started on A is served by B; ended through B, it stops on A within the session cache bound (2 s).
    @Test @MainActor func aSessionStartedOnOneInstanceIsServedAndEndedOnTheOther() async throws {
        try await TwoInstances.with { two in
            let store = InMemorySecureStore()
            let onA = AuthManager(
                configuration: try .init(baseURL: two.a.baseURL, store: store, logger: VaultLive.logger))
            try await VaultLive.member(baseURL: two.a.baseURL, email: "two-session@example.com").logout()
            try await onA.login(email: "two-session@example.com", password: VaultLive.memberPassword)
            // The same device (store, device key) talking to B: B verifies A's token and DPoP binding.
            let onB = AuthManager(
                configuration: try .init(baseURL: two.b.baseURL, store: store, logger: VaultLive.logger))
            await onB.restoreSession()
            #expect(onB.isAuthenticated, "B accepts the session A started: \(String(describing: onB.error))")
            _ = try await onB.apiClient.perform { client in try await client.getCurrentUser().ok }
            #expect(onB.currentUser?.email == "two-session@example.com")

            await onB.logout()
            let endedOnA = await eventually(timeout: .seconds(5)) {
                await onA.checkAuthStatus()
                return !onA.isAuthenticated
            }
            #expect(endedOnA, "A refuses the session B ended")
        }
    }

    /// Revocations pushed by either instance reach every node: a client on node 3 is cut off by A's push, revoked
    /// tokens cannot connect to any node, two instances revoking at once converge on both revocations, and a
    /// restarted node still refuses them.
    @Test @MainActor func revocationsThroughEitherInstanceReachEveryNodeAndSurviveARestart() async throws {
        try await TwoInstances.with { two in
            let viaA = try await Self.member(via: two.a, email: "two-revoke@example.com")
            let viaB = try await Self.signIn("two-revoke@example.com", via: two.b)
            let first = try await viaA.token(.app, deviceID: "first")
            let second = try await viaA.token(.app, deviceID: "second")
            let third = try await viaB.token(.app, deviceID: "third")
            let kept = try await viaB.token(.app, deviceID: "kept")

            let onNode3 = try await two.connect(first.natsJwt, seed: first.natsSeed, node: 2)
            let cutOff = awaitEvent(onNode3, timeout: .seconds(10)) { event in
                if case .disconnected = event { true } else if case .closed = event { true } else { false }
            }
            #expect(try await viaA.revoke(first.tokenId).status == .revoked)
            #expect(try await cutOff.value != nil, "A's push reaches node 3 and cuts the client off")
            await onNode3.close()
            for node in 0..<3 { #expect(await Self.refused(first, by: two, node: node), "node \(node + 1)") }

            // A and B revoke at the same time; every node ends up refusing both.
            async let throughA = viaA.revoke(second.tokenId)
            async let throughB = viaB.revoke(third.tokenId)
            #expect(try await throughA.status == .revoked)
            #expect(try await throughB.status == .revoked)
            for node in 0..<3 {
                let converged = await eventually(timeout: .seconds(10)) {
                    let secondRefused = await Self.refused(second, by: two, node: node)
                    let thirdRefused = await Self.refused(third, by: two, node: node)
                    return secondRefused && thirdRefused
                }
                #expect(converged, "node \(node + 1) refuses both concurrent revocations")
                #expect(!(await Self.refused(kept, by: two, node: node)), "an unrevoked token still connects")
            }

            let restarted = try await two.cluster.restarting(2)
            for token in [first, second, third] {
                #expect(await Self.refused(token, by: TwoInstances(a: two.a, b: two.b, cluster: restarted), node: 2))
            }
            #expect(!(await Self.refused(kept, by: TwoInstances(a: two.a, b: two.b, cluster: restarted), node: 2)))
        }
    }

    /// Both instances' workers join `vault-workers`: requests sent from node 3 are each answered exactly once,
    /// and both instances answer some.
    @Test @MainActor func bothInstancesWorkersShareTheQueueGroupAndAnswerEachRequestOnce() async throws {
        try await TwoInstances.with { two in
            let member = try await Self.member(via: two.a, email: "two-workers@example.com")
            let namespace = try VaultNamespace(userGUID: member.userGUID)
            let token = try await member.token(.app)
            let app = try await two.connect(
                token.natsJwt, seed: token.natsSeed, node: 2, inboxPrefix: namespace.appInboxPrefix)
            let replies = try app.subscribe(to: namespace.appInboxPrefix + ".once.>")
            try await app.flush()
            let count = 60
            for index in 0..<count {
                let message = VaultMessage.executeHandler(
                    id: "r\(index)", handlerID: "echo", payload: .string("\(index)"), timestamp: 1)
                try app.publish(
                    ByteBuffer(bytes: message.encoded()), to: namespace.forVault(.execute),
                    replyTo: namespace.appInboxPrefix + ".once.r\(index)")
            }
            try await app.flush()

            let tally = ReplyTally()
            let collector = Task {
                for await message in replies {
                    await tally.add(String(message.subject.split(separator: ".").last ?? ""))
                }
            }
            let all = await eventually(timeout: .seconds(15)) { await tally.total >= count }
            let received = await tally.total
            #expect(all, "replies: \(received) of \(count)")
            // A little longer for a duplicate that would come late, then stop listening.
            try await Task.sleep(for: .milliseconds(500))
            await app.close()
            collector.cancel()
            let answered = await tally.seen
            #expect(answered.count == count, "every request answered")
            #expect(answered.values.allSatisfy { $0 == 1 }, "and only once: \(answered.filter { $0.value > 1 })")

            let handledByA = Self.workerRequests(two.a)
            let handledByB = Self.workerRequests(two.b)
            #expect(handledByA + handledByB == count)
            #expect(handledByA > 0 && handledByB > 0, "A answered \(handledByA), B \(handledByB)")
        }
    }

    /// The `execute` requests an instance's workers answered, from its metrics.
    static func workerRequests(_ server: LiveServer) -> Int {
        let text = String(decoding: server.components.metrics.exposition(), as: UTF8.self)
        return text.split(separator: "\n")
            .filter { $0.hasPrefix("vettid_nats_worker_requests_total{") && $0.contains("type=\"execute\"") }
            .compactMap { Int($0.split(separator: " ").last ?? "") }
            .reduce(0, +)
    }
}

/// Replies counted per request id.
private actor ReplyTally {
    private(set) var seen: [String: Int] = [:]
    var total: Int { seen.values.reduce(0, +) }

    func add(_ id: String) { seen[id, default: 0] += 1 }
}
