// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import Logging
import Testing
import VettIDCore
import VettIDTestSupport

@testable import VettIDServer

/// What makes authenticated requests cheap, and the bounds it keeps: verified tokens are remembered by hash until
/// they expire; active sessions for 2 s per instance, forgotten at once by the instance that ends them.
@Suite struct AuthHotPathTests {
    static let password = "vivid-Otter-parsley-42"

    @Test func onlyVerifiedTokensAreRememberedAndNeverPastTheirExpiry() async throws {
        let tokens = TokenService(configuration: .init(), keys: try await TokenSigningKeys.ephemeral())
        let now = Date()
        let member = UUID()
        let session = UUID()
        let token = try await tokens.issueAccessToken(memberID: member, sessionID: session, boundJKT: nil, now: now)
        #expect(await tokens.verifyAccessToken(token, now: now)?.sessionID == session)
        // Remembered: the same token again, then a byte changed in its signature (another hash, verified and refused).
        #expect(await tokens.verifyAccessToken(token, now: now)?.memberID == member)
        var forged = Array(token.utf8)
        forged[forged.count - 2] = forged[forged.count - 2] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        #expect(await tokens.verifyAccessToken(String(decoding: forged, as: UTF8.self), now: now) == nil)
        // Past its expiry the remembered result is not used.
        #expect(await tokens.verifyAccessToken(token, now: now.addingTimeInterval(901)) == nil)

        let keys = try await TokenSigningKeys.ephemeral()
        let cache = VerifiedTokenCache<Int>(capacity: 2)
        cache.remember(1, for: "a", generation: 1, expiresAt: now + 10, now: now)
        cache.remember(2, for: "b", generation: 1, expiresAt: now + 10, now: now)
        cache.remember(3, for: "c", generation: 1, expiresAt: now + 10, now: now)
        #expect(cache.count <= 2, "bounded")
        #expect(cache.value(for: "c", now: now, keys: keys) == 3)
        cache.remember(4, for: "d", generation: 1, expiresAt: now - 1, now: now)
        #expect(cache.value(for: "d", now: now, keys: keys) == nil, "an expired token is never remembered")
        cache.remember(5, for: "e", generation: 2, expiresAt: now + 10, now: now)
        #expect(cache.value(for: "e", now: now, keys: keys) == nil, "a generation the keys do not hold")
    }

    /// Two instances on one store. Logout through B: B refuses the access token at once; A, which looked the session
    /// up a moment ago, refuses it once its 2 s are over. A logout through A is refused by A at once.
    @Test(arguments: TestEngine.available)
    func aSessionEndedElsewhereStopsWithinTheCacheLifetime(engine: TestEngine) async throws {
        try await withTestStore(engine) { store in
            let clock = OffsetClock()
            let keys = ServerKeys.ephemeral()
            let configuration = TestApp.configuration()
            let a = try await ServerComponents.make(
                configuration: configuration, store: store, keys: keys, logger: .init(label: "a"), clock: clock)
            let b = try await ServerComponents.make(
                configuration: configuration, store: store, keys: keys, logger: .init(label: "b"), clock: clock)
            let logger = Logger(label: "test")
            _ = try await a.auth.register(
                email: "cache@example.com", password: Self.password, origin: .none, logger: logger)
            let issued = try await a.auth.login(
                email: "cache@example.com", password: Self.password, dpopJKT: nil, origin: .none, logger: logger)

            let (onA, _) = try await a.auth.authenticate(accessToken: issued.accessToken)
            let (onB, _) = try await b.auth.authenticate(accessToken: issued.accessToken)
            try await b.auth.logout(onB, origin: .none, logger: logger)
            await #expect(throws: APIFailure.self, "the instance that ended it refuses at once") {
                _ = try await b.auth.authenticate(accessToken: issued.accessToken)
            }
            #expect(
                try await a.auth.authenticate(accessToken: issued.accessToken).0.session.id == onA.session.id,
                "within the bound the other instance still trusts its lookup")
            clock.advance(2)
            await #expect(throws: APIFailure.self, "after 2 s the other instance reads the store and refuses") {
                _ = try await a.auth.authenticate(accessToken: issued.accessToken)
            }

            let again = try await a.auth.login(
                email: "cache@example.com", password: Self.password, dpopJKT: nil, origin: .none, logger: logger)
            let (session, _) = try await a.auth.authenticate(accessToken: again.accessToken)
            try await a.auth.logout(session, origin: .none, logger: logger)
            await #expect(throws: APIFailure.self, "a logout takes effect at once where it happened") {
                _ = try await a.auth.authenticate(accessToken: again.accessToken)
            }
        }
    }

    /// Refresh-token reuse is decided by the store, so it is caught on any instance.
    @Test func refreshTokenReuseIsCaughtAcrossInstances() async throws {
        try await withTestStore(.sqlite) { store in
            let keys = ServerKeys.ephemeral()
            let a = try await ServerComponents.make(
                configuration: TestApp.configuration(), store: store, keys: keys, logger: .init(label: "a"))
            let b = try await ServerComponents.make(
                configuration: TestApp.configuration(), store: store, keys: keys, logger: .init(label: "b"))
            let logger = Logger(label: "test")
            _ = try await a.auth.register(
                email: "reuse@example.com", password: Self.password, origin: .none, logger: logger)
            let issued = try await a.auth.login(
                email: "reuse@example.com", password: Self.password, dpopJKT: nil, origin: .none, logger: logger)
            let next = try await a.auth.refresh(refreshToken: issued.refreshToken, dpopJKT: nil, logger: logger)
            await #expect(throws: APIFailure.self) {
                _ = try await b.auth.refresh(refreshToken: issued.refreshToken, dpopJKT: nil, logger: logger)
            }
            await #expect(throws: APIFailure.self, "the family is revoked: the newest refresh token is refused too") {
                _ = try await a.auth.refresh(refreshToken: next.refreshToken, dpopJKT: nil, logger: logger)
            }
        }
    }
}
