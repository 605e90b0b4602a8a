// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
import VettIDCrypto
import VettIDTestSupport

@Suite struct CredsFileTests {
    static func expected() throws -> (jwt: String, seed: String) {
        let root = try TestFixtures.jsonObject("nats/TestUser.json")
        return (try #require(root["jwt"] as? String), try #require(root["seed"] as? String))
    }

    @Test func parsesTheFixtureCredsFile() throws {
        let creds = try NATSCredsFile.parse(try TestFixtures.string("nats/TestUser.creds"))
        let expected = try Self.expected()
        #expect(creds.jwt == expected.jwt)
        #expect(creds.seed == expected.seed)
        #expect(
            try NKeyPair(seed: creds.seed).publicKey == (try NATSJWT.decode(creds.jwt, as: NATSUserClaims.self)).subject
        )
    }

    @Test func parsesWithCRLFLineEndings() throws {
        let text = try TestFixtures.string("nats/TestUser.creds").replacingOccurrences(of: "\n", with: "\r\n")
        let creds = try NATSCredsFile.parse(text)
        let expected = try Self.expected()
        #expect(creds.jwt == expected.jwt)
        #expect(creds.seed == expected.seed)
    }

    @Test func formatsByteIdenticalToTheFixture() throws {
        let expected = try Self.expected()
        let formatted = NATSCredsFile(jwt: expected.jwt, seed: expected.seed).formatted
        #expect(formatted == (try TestFixtures.string("nats/TestUser.creds")))
        #expect(try NATSCredsFile.parse(formatted) == NATSCredsFile(jwt: expected.jwt, seed: expected.seed))
    }

    @Test func parsesUndecoratedCreds() throws {
        let expected = try Self.expected()
        let creds = try NATSCredsFile.parse("\(expected.jwt)\n  \(expected.seed)  \n")
        #expect(creds.jwt == expected.jwt)
        #expect(creds.seed == expected.seed)
    }

    @Test func refusesCredsWithoutSeed() throws {
        let expected = try Self.expected()
        #expect(throws: NATSJWTError.self) { try NATSCredsFile.parse(expected.jwt) }
        #expect(throws: NATSJWTError.self) { try NATSCredsFile.parse("") }
    }

    @Test func descriptionRedactsTheSeed() throws {
        let expected = try Self.expected()
        let creds = NATSCredsFile(jwt: expected.jwt, seed: expected.seed)
        #expect(!"\(creds)".contains(expected.seed))
    }
}
