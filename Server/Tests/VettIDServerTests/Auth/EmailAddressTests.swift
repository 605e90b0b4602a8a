// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Testing

@testable import VettIDServer

@Suite struct EmailAddressTests {
    @Test(arguments: [
        ("alice@example.com", "alice@example.com"),
        ("  Alice@Example.COM \n", "alice@example.com"),
        ("ALICE@EXAMPLE.COM", "alice@example.com"),
        ("ａｌｉｃｅ@ｅｘａｍｐｌｅ.com", "alice@example.com"),  // full-width forms fold (NFKC)
        ("Zoë@Exämple.de", "zoë@exämple.de"),
        ("Zoe\u{308}@example.de", "zoë@example.de"),  // decomposed ë composes
        ("first.last+tag@sub.example.co.uk", "first.last+tag@sub.example.co.uk"),
    ])
    func normalises(raw: String, normalised: String) throws {
        #expect(try EmailAddress(raw).value == normalised)
    }

    @Test(arguments: [
        "", "plainaddress", "@example.com", "alice@", "alice@@example.com", "a@b@example.com",
        "alice@localhost", "alice@example..com", ".alice@example.com", "alice.@example.com", "al..ice@example.com",
        "alice smith@example.com", "alice@exa mple.com", "alice@-example.com", "alice@example.123",
        "alice'); DROP TABLE users;--@example.com", "alice@example.com\u{0}", "\u{202E}alice@example.com",
        String(repeating: "a", count: 65) + "@example.com",
    ])
    func refuses(raw: String) {
        #expect(throws: EmailAddress.Invalid.self) { try EmailAddress(raw) }
    }
}
