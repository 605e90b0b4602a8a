// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Testing
import VettIDCore
import VettIDCrypto
import VettIDSession

/// The inner request and response: their exact JSON and their strictness.
@Suite struct SessionInnerMessageTests {
    @Test func requestJSON() throws {
        let request = try SessionInnerRequest(
            id: "0b9c7e52-6a1f-4d3e-9f27-51c2a8e4b6d1", handler: "echo", body: .object([("hello", .string("vault"))]),
            expiresAtMilliseconds: 1_767_225_630_000)
        let text =
            #"{"id":"0b9c7e52-6a1f-4d3e-9f27-51c2a8e4b6d1","handler":"echo","body":{"hello":"vault"},"exp":1767225630000}"#
        #expect(String(decoding: request.bytes, as: UTF8.self) == text)
        #expect(try SessionInnerRequest(decoding: Array(text.utf8)) == request)
        #expect(SessionInnerRequest.requestID(in: Array(#"{"id":"x","other":1}"#.utf8)) == "x")
        #expect(SessionInnerRequest.requestID(in: Array("nope".utf8)) == nil)
    }

    @Test func requestRefusals() {
        let bad = [
            "[]", "not json", #"{"id":"a","handler":"h","body":null}"#,
            #"{"id":"a","handler":"h","body":null,"exp":1,"extra":0}"#, #"{"id":1,"handler":"h","body":null,"exp":1}"#,
            #"{"id":"","handler":"h","body":null,"exp":1}"#, #"{"id":"a","handler":"h","body":null,"exp":"1"}"#,
            #"{"id":"a","handler":"h","body":null,"exp":1.5}"#,
            #"{"id":"a","id":"b","handler":"h","body":null,"exp":1}"#,
            "{\"id\":\"\(String(repeating: "a", count: 129))\",\"handler\":\"h\",\"body\":null,\"exp\":1}",
        ]
        for text in bad {
            #expect(
                sessionErrorCode { _ = try SessionInnerRequest(decoding: Array(text.utf8)) } == .malformedMessage,
                "\(text)")
        }
    }

    @Test func responseJSON() throws {
        let success = SessionInnerResponse.success(id: "r1", result: .object([("hello", .string("vault"))]))
        #expect(String(decoding: success.bytes, as: UTF8.self) == #"{"id":"r1","ok":true,"result":{"hello":"vault"}}"#)
        let failure = SessionInnerResponse.failure(
            id: nil, error: SessionHandlerError(.init(rawValue: "malformed_message"), "m"))
        #expect(
            String(decoding: failure.bytes, as: UTF8.self)
                == #"{"id":null,"ok":false,"error":{"code":"malformed_message","message":"m"}}"#)
        for response in [success, failure] {
            #expect(try SessionInnerResponse(decoding: response.bytes) == response)
        }
    }

    @Test func responseRefusals() {
        let bad = [
            #"{"id":"r","ok":true}"#, #"{"id":null,"ok":true,"result":1}"#, #"{"id":"r","ok":true,"result":1,"x":2}"#,
            #"{"id":"r","ok":false,"error":{"code":"","message":"m"}}"#, #"{"id":"r","ok":false,"error":{"code":"c"}}"#,
            #"{"id":"r","ok":"yes","result":1}"#, #"{"id":"r","ok":false,"result":1}"#,
        ]
        for text in bad {
            #expect(
                sessionErrorCode { _ = try SessionInnerResponse(decoding: Array(text.utf8)) } == .malformedMessage,
                "\(text)")
        }
    }

    @Test func refusalJSON() throws {
        let refusal = SessionRefusal(SessionError(.replayed, "already received"))
        #expect(
            String(decoding: refusal.bytes, as: UTF8.self)
                == #"{"error":{"code":"replayed","message":"already received"}}"#)
        #expect(SessionRefusal.isRefusal(refusal.bytes))
        #expect(try SessionRefusal(parsing: refusal.bytes) == refusal)
        #expect(
            sessionErrorCode { _ = try SessionRefusal(parsing: Array(#"{"error":{"code":"x"}}"#.utf8)) }
                == .malformedMessage)
    }
}
