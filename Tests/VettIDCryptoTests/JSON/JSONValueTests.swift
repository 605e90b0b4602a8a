// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Testing
import VettIDCrypto

@Suite struct JSONValueTests {
    @Test func serializesCompactlyInStoredOrder() {
        let value = JSONValue.object([
            ("b", .integer(1)), ("a", .string("x/\"\\\n\u{01}é")), ("c", .array([.null, .bool(true), .bool(false)])),
        ])
        #expect(
            String(decoding: value.serialized(), as: UTF8.self)
                == #"{"b":1,"a":"x/\"\\\n\u0001é","c":[null,true,false]}"#)
    }

    @Test("every escape, at the start, between runs and at the end of a string; empty and escape-only strings")
    func escapesEveryByteThatCannotStayRaw() {
        let cases: [(String, String)] = [
            ("", #""""#),
            ("\"", #""\"""#),
            ("\t\r\u{08}\u{0C}\u{1F}\u{00}", #""\t\r\b\f\u001f\u0000""#),
            ("a\\b\"c\nd", #""a\\b\"c\nd""#),
            ("plain ascii and é 😀", #""plain ascii and é 😀""#),
            (String(repeating: "x", count: 300) + "\n", "\"" + String(repeating: "x", count: 300) + #"\n""#),
        ]
        for (string, expected) in cases {
            #expect(String(decoding: JSONValue.string(string).serialized(), as: UTF8.self) == expected)
            #expect(JSONValue.parse(JSONValue.array([.string(string)]).serialized()) == .array([.string(string)]))
        }
    }

    @Test func parsesAndRoundTrips() throws {
        let text = #"{"a":[1,-2.5e3,0],"b":{"c":"\u00e9\ud83d\ude00\/"},"d":null}"#
        let value = try #require(JSONValue.parse(Array(text.utf8)))
        #expect(value["a"] == .array([.number("1"), .number("-2.5e3"), .number("0")]))
        #expect(value["b"]?["c"]?.stringValue == "é😀/")
        #expect(value["d"] == .null)
        #expect(JSONValue.parse(value.serialized()) == value)
    }

    @Test(arguments: [
        #"{"a":1,"a":2}"#,  // duplicate member
        #"{"a":01}"#,  // leading zero
        #"{"a":1,}"#,  // trailing comma
        #"{"a":"\ud800"}"#,  // lone surrogate
        "{\"a\":\"\u{01}\"}",  // raw control character
        #"{"a":1} x"#,  // trailing content
        #"{'a':1}"#,  // not JSON
        #"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]"#,  // too deep
    ])
    func refusesInvalidJSON(text: String) {
        #expect(JSONValue.parse(Array(text.utf8)) == nil)
    }

    @Test func refusesInvalidUTF8() {
        #expect(JSONValue.parse([UInt8(ascii: "\""), 0xC3, 0x28, UInt8(ascii: "\"")]) == nil)
        // After a printable ASCII prefix too (the parser reads such a prefix on a shortcut).
        #expect(JSONValue.parse(Array(#""abc"#.utf8) + [0xC3, 0x28, UInt8(ascii: "\"")]) == nil)
    }

    /// Strings that start in printable ASCII and then need the general path: escapes, non-ASCII, control bytes.
    @Test func decodesStringsThatLeaveTheASCIIShortcut() throws {
        let value = try #require(JSONValue.parse(Array(#"["abc\n\u00e9d", "abcé", "a\"b", "plain"]"#.utf8)))
        #expect(value == .array([.string("abc\né" + "d"), .string("abcé"), .string("a\"b"), .string("plain")]))
        #expect(JSONValue.parse(Array("[\"abc\u{01}\"]".utf8)) == nil)
    }

    /// Duplicate names are refused in small objects (a scan) and large ones (a set from the ninth member on).
    @Test(arguments: [2, 8, 9, 40])
    func refusesDuplicateNamesAtEverySize(members: Int) {
        let names = (0..<members).map { "m\($0)" }
        let unique = "{" + names.map { "\"\($0)\":1" }.joined(separator: ",") + "}"
        #expect(JSONValue.parse(Array(unique.utf8))?.objectMembers?.count == members)
        for duplicate in [names[0], names[members / 2], names[members - 1]] {
            let text = "{" + (names + [duplicate]).map { "\"\($0)\":1" }.joined(separator: ",") + "}"
            #expect(JSONValue.parse(Array(text.utf8)) == nil, "\(duplicate) in \(members)")
        }
    }
}
