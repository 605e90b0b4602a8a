// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Testing

@testable import VettIDServer

@Suite struct JSONNullScannerTests {
    func scan(_ text: String) -> JSONNullScanner.Finding { JSONNullScanner.scan(Array(text.utf8)) }

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
}
