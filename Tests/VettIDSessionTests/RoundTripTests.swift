// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Testing
import VettIDCrypto
import VettIDSession

/// The whole exchange in memory for each suite: handshake, sealed requests, sealed answers.
@Suite struct RoundTripTests {
    @Test(arguments: [SessionSuite.x25519, .xWing]) func handshakeThenRequests(suite: SessionSuite) async throws {
        let harness = try SessionHarness()
        let (client, session) = try await harness.establish(suites: [suite])
        #expect(client.suite == suite)
        #expect(session.suite == suite)
        #expect(client.sessionID == session.id)
        for index in 0..<5 {
            let body = JSONValue.object([("n", .integer(Int64(index))), ("secret", .string("hunter2"))])
            let sealed = try client.sealRequest(handler: "echo", body: body)
            // Nothing of the request is in the clear.
            #expect(!contains(sealed.envelope, "echo"))
            #expect(!contains(sealed.envelope, "hunter2"))
            #expect(!contains(sealed.envelope, sealed.id))
            let admitted = try #require(
                harness.table.open(sealed.envelope, memberGUID: SessionHarness.memberGUID).admitted)
            #expect(admitted.request.body == body)
            let reply = try admitted.sealResult(body)
            #expect(!contains(reply, "hunter2"))
            #expect(reply.count == 28 + 512 + 16)
            #expect(try client.openResponse(reply, to: sealed) == .success(id: sealed.id, result: body))
        }
    }

    @Test func bothSuitesAvailableOnLinux() {
        #if os(Linux)
            #expect(SessionSuite.available == [.xWing, .x25519])
        #endif
        #expect(SessionSuite.known == [.xWing, .x25519])
        #expect(SessionSuite.x25519.description == "0x0001 (X25519)")
        #expect(SessionSuite(rawValue: 0x00FF).description == "0x00ff")
        #expect(SessionSuite.xWing.ephemeralPublicKeyLength == 1216)
        #expect(SessionSuite.xWing.encapsulatedKeyLength == 1120)
        #expect(SessionSuite(rawValue: 3).encapsulatedKeyLength == nil)
        #expect(!SessionSuite(rawValue: 3).isAvailable)
    }

    private func contains(_ bytes: [UInt8], _ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard needle.count <= bytes.count else { return false }
        return (0...(bytes.count - needle.count)).contains { Array(bytes[$0..<($0 + needle.count)]) == needle }
    }
}
