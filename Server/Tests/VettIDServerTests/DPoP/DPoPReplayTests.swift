// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import Logging
import Testing
import VettIDCore
import VettIDCrypto
import VettIDVerification

@testable import VettIDServer

/// The server's DPoP replay cache: in memory in front of the shared store; on SQLite a store of its own.
@Suite struct DPoPReplayTests {
    static func key(_ jti: String) -> DPoPReplayKey {
        DPoPReplayKey(normalizedTargetURI: "https://api.vettid.test/x", jti: jti)
    }
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func windowsRememberEachProofUntilItsExpiryAndDropWholeBuckets() {
        var windows = DPoPReplayWindows(bucketSeconds: 10, capacity: 100)
        let first = windows.insert(Self.key("a"), expiresAt: Self.t0 + 65, now: Self.t0)
        let replay = windows.insert(Self.key("a"), expiresAt: Self.t0 + 65, now: Self.t0 + 1)
        #expect(first)
        #expect(!replay, "a replay at this instance")
        #expect(windows.contains(Self.key("a"), now: Self.t0 + 64.9), "kept up to its own expiry")
        let other = windows.insert(Self.key("b"), expiresAt: Self.t0 + 5, now: Self.t0)
        #expect(other)
        #expect(windows.count == 2)
        // Well past both expiries (and their buckets), both are gone and memory is released.
        windows.purge(now: Self.t0 + 100)
        #expect(windows.count == 0)
        #expect(!windows.contains(Self.key("a"), now: Self.t0 + 100))
        let again = windows.insert(Self.key("a"), expiresAt: Self.t0 + 160, now: Self.t0 + 100)
        #expect(again, "an expired proof's key can be taken again")
    }

    @Test func pastCapacityTheWindowsStopRememberingButNeverRefuseANewProof() {
        var windows = DPoPReplayWindows(bucketSeconds: 10, capacity: 2)
        let accepted = ["1", "2", "3"].map { windows.insert(Self.key($0), expiresAt: Self.t0 + 60, now: Self.t0) }
        #expect(accepted == [true, true, true], "new proofs are still accepted")
        #expect(windows.count == 2)
        #expect(!windows.contains(Self.key("3"), now: Self.t0), "the store behind has the last word on it")
    }

    /// The layered cache refuses what the store refuses, even when memory has not seen it.
    @Test func theStoreDecidesForProofsThisInstanceHasNotSeen() async {
        let store = InMemoryDPoPReplayCache()
        let first = LayeredDPoPReplayCache(backend: store)
        let second = LayeredDPoPReplayCache(backend: store)
        #expect(await first.insert(Self.key("p"), expiresAt: Self.t0 + 60, now: Self.t0))
        #expect(await first.contains(Self.key("p"), now: Self.t0))
        #expect(!(await second.contains(Self.key("p"), now: Self.t0)), "the pre-check answers from memory only")
        #expect(!(await second.insert(Self.key("p"), expiresAt: Self.t0 + 60, now: Self.t0)), "refused by the store")
        #expect(!(await first.insert(Self.key("p"), expiresAt: Self.t0 + 60, now: Self.t0)), "refused from memory")
    }

    /// On the production path (a data directory, SQLite with the replay store in a file of its own): a proof is
    /// accepted once, then refused by the same instance, by a second instance on the same files, and by a new
    /// instance after both shut down within the proof's lifetime.
    @Test func aProofIsAcceptedOnceThenRefusedHereElsewhereAndAfterARestart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vettid-replay-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = DPoPMemberAuthTests.configuration()
        configuration.dataDirectory = directory.path
        let logger = Logger(label: "replay")
        let first = try await ServerComponents.make(configuration: configuration, logger: logger)
        let second = try await ServerComponents.make(configuration: configuration, logger: logger)
        #expect(first.separateReplayStore != nil, "SQLite deployments record proofs in a store of their own")
        #expect(FileManager.default.fileExists(atPath: configuration.replaySQLitePath))

        let device = DPoPMemberAuthTests.Device()
        let proof = try await device.proof("POST", "/auth/login", nonce: first.dpop.currentNonce())
        #expect(try await Self.verify(proof, with: first) == device.thumbprint)
        #expect(try await Self.verify(proof, with: first) == nil, "the same instance refuses it")
        #expect(try await Self.verify(proof, with: second) == nil, "another instance refuses it")
        for components in [first, second] { try await components.shutdownStores() }
        let restarted = try await ServerComponents.make(configuration: configuration, logger: logger)
        #expect(try await Self.verify(proof, with: restarted) == nil, "refused after a restart")
        let fresh = try await device.proof("POST", "/auth/login", nonce: restarted.dpop.currentNonce())
        #expect(try await Self.verify(fresh, with: restarted) == device.thumbprint, "a new proof still passes")
        try await restarted.shutdownStores()
    }

    /// With a shared store (PostgreSQL deployments, or the store the tests pass) the replay table is the main one.
    @Test(arguments: TestEngine.available)
    func twoInstancesOnOneStoreAcceptAProofOnce(engine: TestEngine) async throws {
        try await withTestStore(engine) { store in
            let keys = ServerKeys.ephemeral()
            let configuration = DPoPMemberAuthTests.configuration()
            let first = try await ServerComponents.make(
                configuration: configuration, store: store, keys: keys, logger: .init(label: "a"))
            let second = try await ServerComponents.make(
                configuration: configuration, store: store, keys: keys, logger: .init(label: "b"))
            let device = DPoPMemberAuthTests.Device()
            let proof = try await device.proof("POST", "/auth/login", nonce: first.dpop.currentNonce())
            #expect(
                try await Self.verify(proof, with: second) == device.thumbprint,
                "a nonce of one instance is good at the other")
            #expect(try await Self.verify(proof, with: first) == nil)
            #expect(try await Self.verify(proof, with: second) == nil)
        }
    }

    /// The proof's thumbprint when `components` accepts it at the token endpoint, `nil` when refused.
    static func verify(_ proof: String, with components: ServerComponents) async throws -> String? {
        var head = HTTPRequest(method: .post, scheme: "https", authority: "api.vettid.test", path: "/auth/login")
        head.headerFields[.dpop] = proof
        let info = RequestInfo(
            head: head, clientIP: nil, requestID: "t", logger: .init(label: "t"), responseHeaders: ResponseHeaders())
        do {
            return try await components.dpop.verify(info, endpoint: .token).thumbprint
        } catch is APIFailure {
            return nil
        }
    }
}
