// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Testing

@testable import VettIDServer

@Suite struct JSONLiteralScannerTests {
    func scan(_ text: String) -> JSONLiteralScanner.Finding { JSONLiteralScanner.scan(Array(text.utf8)) }

    @Test func findsNullLiteralsAndNamesTheirMember() {
        #expect(scan(#"{"purpose": null}"#) == .null(member: "purpose"))
        #expect(scan(#"{"a":1,"b":{"c":[1,null]}}"#) == .null(member: "c"))
        #expect(scan("null") == .null(member: nil))
        #expect(scan("{\"a\" :\t null}") == .null(member: "a"))
    }

    @Test func leavesStringsAndOtherValuesAlone() {
        #expect(scan(#"{"email":"null@example.com","note":"a \"null\" here","n":1}"#) == .none)
        #expect(scan(#"{"null":true,"x":"\\","y":false}"#) == .none)
        #expect(scan("not json at all") == .none)
        #expect(scan("") == .none)
        #expect(scan(#"{"a":nul"#) == .none)
    }

    @Test func namesAnIntegerNoSixtyFourBitFieldCanHold() {
        #expect(
            scan(#"{"action_id":"a","key_version":12345678901234567890123}"#)
                == .integerOutOfRange(member: "key_version"))
        #expect(scan(#"{"n":[1,-9223372036854775809]}"#) == .integerOutOfRange(member: "n"))
        #expect(scan("99999999999999999999") == .integerOutOfRange(member: nil))
        #expect(scan(#"{"a":9223372036854775807,"b":-9223372036854775808}"#) == .none)
        #expect(scan(#"{"a":1e400,"b":1.5,"c":12345678901234567890.5,"d":"12345678901234567890123"}"#) == .none)
    }
}
