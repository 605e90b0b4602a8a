// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
import VettIDTestSupport

@testable import VettIDServer

struct PortalFormTests {
    func parse(_ text: String) throws(PortalForm.Malformed) -> PortalForm { try PortalForm(parsing: Array(text.utf8)) }

    @Test func decodesPlusPercentAndUTF8() throws {
        let form = try parse("email=ada%40example.com&label=Ada%27s+phone+%E2%9C%93&empty=&flag&csrf=a%2Bb")
        #expect(form["email"] == "ada@example.com")
        #expect(form["label"] == "Ada's phone ✓")
        #expect(form["empty"] == "")
        #expect(form["flag"] == "")
        #expect(form["csrf"] == "a+b", "an encoded plus is a plus, a bare plus a space")
        #expect(form["missing"] == nil)
        #expect(form.trimmed("empty") == nil)
    }

    @Test func theFirstOfARepeatedFieldWins() throws {
        #expect(try parse("a=1&a=2")["a"] == "1")
        #expect(try parse("&&a=1&&")["a"] == "1")
        #expect(try parse("").fields.isEmpty)
    }

    @Test(arguments: ["a=%", "a=%4", "a=%zz", "a=%G0", "%=1", "a=%C3%28", "a=%FF"])
    func refusesMalformedEscapesAndInvalidUTF8(text: String) {
        #expect(throws: PortalForm.Malformed.self) { try parse(text) }
    }

    @Test func boundsTheNumberOfFields() throws {
        let most = (0..<PortalForm.maximumFields).map { "f\($0)=x" }.joined(separator: "&")
        #expect(try parse(most).fields.count == PortalForm.maximumFields)
        let error = #expect(throws: PortalForm.Malformed.self) { try parse(most + "&one=more") }
        #expect(error?.reason == "too many fields")
    }

    @Test func agreesWithPercentDecodingOnGeneratedValues() throws {
        var random = SplitMix64(seed: 18)
        let alphabet = Array("aZ09 +&=%~-._*/?#\u{00E9}\u{4E2D}\u{1F600}<>\"'")
        for _ in 0..<2_000 {
            let value = String(
                (0..<Int(random.next() % 12)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] })
            var allowed = CharacterSet.alphanumerics
            allowed.insert(charactersIn: "-._*")
            let encoded = value.addingPercentEncoding(withAllowedCharacters: allowed)!
            #expect(try parse("v=" + encoded)["v"] == value)
            #expect(try parse("v=" + encoded.replacingOccurrences(of: "%20", with: "+"))["v"] == value)
        }
    }
}
