// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Testing
import VettIDCore
import VettIDCrypto
import VettIDSession

/// The app's established session: sequence numbers, request ids and `exp`, limits, and answers to other requests.
@Suite struct SealedSessionClientTests {
    let member = SessionHarness.memberGUID

    @Test func requestsCountUpAndCarryAFreshIdAndExp() async throws {
        let harness = try SessionHarness()
        let (client, _) = try await harness.establish()
        let first = try client.sealRequest(handler: "echo", body: .null, validFor: .seconds(10))
        let second = try client.sealRequest(handler: "echo", body: .null)
        #expect([first.sequence, second.sequence] == [1, 2])
        #expect(first.id != second.id)
        #expect(first.id.count == 36)
        #expect(Array(first.id)[14] == "4")
        #expect(client.remainingRequests == 998)
        let admitted = try #require(harness.table.open(first.envelope, memberGUID: member).admitted)
        #expect(admitted.request.id == first.id)
        #expect(admitted.request.expiresAtMilliseconds == Int64(SessionHarness.start) + 10_000)
    }

    @Test func concurrentSealsGetDistinctNumbers() async throws {
        let harness = try SessionHarness()
        let (client, _) = try await harness.establish()
        let sequences = try await withThrowingTaskGroup(of: UInt64.self) { group in
            for _ in 0..<50 { group.addTask { try client.sealRequest(handler: "echo", body: .null).sequence } }
            return try await group.reduce(into: [UInt64]()) { $0.append($1) }
        }
        #expect(Set(sequences) == Set(1...50))
    }

    @Test func theAnswerToAnotherRequestIsRefused() async throws {
        let harness = try SessionHarness()
        let (client, _) = try await harness.establish()
        let first = try client.sealRequest(handler: "echo", body: .null)
        let second = try client.sealRequest(handler: "echo", body: .null)
        let admittedFirst = try #require(harness.table.open(first.envelope, memberGUID: member).admitted)
        let admittedSecond = try #require(harness.table.open(second.envelope, memberGUID: member).admitted)
        let answerFirst = try admittedFirst.sealResult(.string("one"))
        // Another request's answer: another sequence number.
        #expect(sessionErrorCode { _ = try client.openResponse(answerFirst, to: second) } == .responseMismatch)
        // The right sequence number but another request's id inside.
        let wrongID = try admittedSecond.seal(.success(id: first.id, result: .string("two")))
        #expect(sessionErrorCode { _ = try client.openResponse(wrongID, to: second) } == .responseMismatch)
        #expect(try client.openResponse(answerFirst, to: first) == .success(id: first.id, result: .string("one")))
    }

    @Test func anAnswerFromAnotherSessionIsRefused() async throws {
        let harness = try SessionHarness()
        let (alice, _) = try await harness.establish()
        let (bob, _) = try await harness.establish()
        let aliceRequest = try alice.sealRequest(handler: "echo", body: .null)
        let bobRequest = try bob.sealRequest(handler: "echo", body: .null)
        let bobAnswer = try #require(harness.table.open(bobRequest.envelope, memberGUID: member).admitted)
            .sealResult(.null)
        #expect(sessionErrorCode { _ = try alice.openResponse(bobAnswer, to: aliceRequest) } == .responseMismatch)
        // Relabelled with alice's session id, it does not open under alice's key.
        var relabelled = bobAnswer
        relabelled.replaceSubrange(4..<20, with: alice.sessionID.bytes)
        #expect(sessionErrorCode { _ = try alice.openResponse(relabelled, to: aliceRequest) } == .badEnvelope)
    }

    @Test func everyTruncatedAnswerIsRefused() async throws {
        let harness = try SessionHarness()
        let (client, _) = try await harness.establish(suites: [.x25519])
        let sealed = try client.sealRequest(handler: "echo", body: .null)
        let answer = try #require(harness.table.open(sealed.envelope, memberGUID: member).admitted).sealResult(
            .null)
        for length in 0..<answer.count {
            let expected: SessionError.Code = length < SessionEnvelope.minimumLength ? .malformedEnvelope : .badEnvelope
            #expect(
                sessionErrorCode { _ = try client.openResponse(Array(answer.prefix(length)), to: sealed) } == expected)
        }
    }

    @Test func aRequestTooLargeUsesNoNumber() async throws {
        let harness = try SessionHarness()
        let (client, _) = try await harness.establish()
        let huge = JSONValue.string(String(repeating: "a", count: 61_440))
        #expect(sessionErrorCode { _ = try client.sealRequest(handler: "echo", body: huge) } == .messageTooLarge)
        #expect(try client.sealRequest(handler: "echo", body: .null).sequence == 1)
    }

    @Test func theLargestRequestFitsTheWorkersPayload() async throws {
        let harness = try SessionHarness()
        let (client, _) = try await harness.establish()
        let overhead = #"{"id":"00000000-0000-4000-8000-000000000000","handler":"echo","body":"","exp":1767225630000}"#
            .utf8.count
        let body = JSONValue.string(String(repeating: "a", count: SessionPadding.defaultMaxInnerLength - overhead))
        let sealed = try client.sealRequest(handler: "echo", body: body)
        #expect(sealed.envelope.count == 61952 + 44)
        #expect(sealed.envelope.count <= 65536)
        #expect(harness.table.open(sealed.envelope, memberGUID: member).admitted != nil)
    }
}
