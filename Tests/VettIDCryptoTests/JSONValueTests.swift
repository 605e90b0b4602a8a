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
    }
}
