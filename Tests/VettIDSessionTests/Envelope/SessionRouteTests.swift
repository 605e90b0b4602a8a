// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Testing

@testable import VettIDSession

/// The route: the vault instance that holds a session, at the front of its id and at the end of its subject.
@Suite struct SessionRouteTests {
    @Test func anIdOfARouteStartsWithItAndTheRestIsRandom() throws {
        let route = try #require(SessionRoute(bytes: [0x0a, 0x1b, 0x2c, 0x3d]))
        #expect(route.subjectToken == "0a1b2c3d")
        let random = ScriptedRandom()
        let first = SessionID.random(random, route: route)
        let second = SessionID.random(random, route: route)
        #expect(first.bytes.count == SessionID.length)
        #expect(Array(first.bytes.prefix(4)) == route.bytes)
        #expect(first.route == route && second.route == route)
        #expect(first != second, "the other 12 bytes are random")
        #expect(SessionRoute(bytes: [1, 2, 3]) == nil && SessionRoute(bytes: [1, 2, 3, 4, 5]) == nil)
    }

    @Test func theVaultIssuesSessionsOfItsRoute() async throws {
        let route = try #require(SessionRoute(bytes: [0xde, 0xad, 0xbe, 0xef]))
        let harness = try SessionHarness(route: route)
        let (client, session) = try await harness.establish()
        #expect(client.sessionID.route == route)
        #expect(session.id.route.subjectToken == "deadbeef")
    }
}
