// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import NIOCore
import Testing

@testable import NATSClient

/// API error answers (as nats-server 2.9.10 sent them) becoming typed errors, and the names the API accepts.
@Suite struct JetStreamErrorTests {
    private func refusal(_ answer: String) -> JetStreamError? {
        do {
            _ = try JetStreamJSON.decode(StreamInfo.self, from: ByteBuffer(string: answer))
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [
        (
            #"{"type":"io.nats.jetstream.api.v1.stream_info_response","error":{"code":404,"err_code":10059,"description":"stream not found"},"total":0,"offset":0,"limit":0}"#,
            JetStreamError.Code.streamNotFound, 404, 10059
        ),
        (
            #"{"type":"io.nats.jetstream.api.v1.consumer_info_response","error":{"code":404,"err_code":10014,"description":"consumer not found"}}"#,
            .consumerNotFound, 404, 10014
        ),
        (
            #"{"type":"io.nats.jetstream.api.v1.stream_create_response","error":{"code":400,"err_code":10058,"description":"stream name already in use with a different configuration"}}"#,
            .streamNameInUse, 400, 10058
        ),
        (
            #"{"type":"io.nats.jetstream.api.v1.stream_create_response","error":{"code":400,"err_code":10065,"description":"subjects overlap with an existing stream"}}"#,
            .subjectsOverlap, 400, 10065
        ),
        (
            #"{"error":{"code":400,"err_code":10071,"description":"wrong last sequence: 1"},"stream":"MB","seq":0}"#,
            .wrongLastSequence, 400, 10071
        ),
        (
            #"{"type":"io.nats.jetstream.api.v1.consumer_create_response","error":{"code":400,"err_code":10131,"description":"Consumer create request did not match filtered subject from create subject"}}"#,
            .consumerFilterMismatch, 400, 10131
        ),
        (
            #"{"type":"io.nats.jetstream.api.v1.account_info_response","error":{"code":503,"err_code":10039,"description":"JetStream not enabled for account"}}"#,
            .notEnabled, 503, 10039
        ),
        (
            #"{"type":"io.nats.jetstream.api.v1.stream_update_response","error":{"code":500,"err_code":10052,"description":"stream configuration update can not change storage type"}}"#,
            .apiError, 500, 10052
        ),
    ])
    func anAPIErrorBecomesItsTypedError(answer: String, code: JetStreamError.Code, status: Int, errorCode: Int) throws {
        let error = try #require(refusal(answer))
        #expect(error.code == code)
        #expect(error.apiError?.code == status)
        #expect(error.apiError?.errorCode == errorCode)
        #expect(error.message.contains("err_code \(errorCode)"))
    }

    @Test func anErrorWithoutErrCodeKeepsItsStatus() throws {
        let error = try #require(refusal(#"{"error":{"code":408,"description":"request timeout"}}"#))
        #expect(error.code == .apiError)
        #expect(error.apiError == JetStreamAPIError(code: 408, errorCode: 0, description: "request timeout"))
    }

    @Test(arguments: ["", "not json", "[1,2]", #"{"error":"text"}"#, #"{"config":{}}"#])
    func anAnswerThatIsNotTheDocumentedJSONIsAnInvalidResponse(answer: String) throws {
        let error = try #require(refusal(answer))
        #expect(error.code == .invalidResponse)
        #expect(error.apiError == nil)
    }

    @Test func theErrorMatchesItsCodeInCatchClauses() {
        let error: any Error = JetStreamError(
            apiError: .init(code: 404, errorCode: 10059, description: "stream not found"))
        var matched = false
        do { throw error } catch JetStreamError.Code.streamNotFound { matched = true } catch {}
        #expect(matched)
        #expect("\(error)" == "JetStreamError(stream_not_found): stream not found (code 404, err_code 10059)")
    }

    @Test(arguments: ["MAILBOX", "device-1", "a_b", "Ünïcode"])
    func validNames(name: String) {
        #expect(JetStreamContext.isValidName(name))
    }

    @Test(arguments: ["", "a.b", "a*", ">", "a b", "a\tb", "a\nb", "\u{7F}"])
    func invalidNames(name: String) {
        #expect(!JetStreamContext.isValidName(name))
    }

    @Test func literalSubjectsHaveNoWildcardToken() {
        #expect(JetStreamContext.isLiteral("a.b.c"))
        #expect(JetStreamContext.isLiteral("a.b*c"))
        #expect(!JetStreamContext.isLiteral("a.*.c"))
        #expect(!JetStreamContext.isLiteral("a.>"))
    }
}
