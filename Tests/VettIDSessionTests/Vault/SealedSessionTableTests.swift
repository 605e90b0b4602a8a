// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Testing
import VettIDCore
import VettIDCrypto

@testable import VettIDSession

/// The vault's request path: every refusal of an envelope, with its code and whether its answer is sealed.
@Suite struct SealedSessionTableTests {
    let member = SessionHarness.memberGUID

    @Test func anAdmittedRequestIsAnsweredSealedOnce() async throws {
        let harness = try SessionHarness()
        let (client, session) = try await harness.establish()
        let sealed = try client.sealRequest(handler: "echo", body: .object([("hello", .string("vault"))]))
        let admitted = try #require(harness.table.open(sealed.envelope, memberGUID: member).admitted)
        #expect(admitted.request.handler == "echo")
        #expect(admitted.sequence == 1)
        #expect(admitted.session.id == session.id)
        #expect(admitted.session.deviceThumbprint == harness.device.publicJWK.thumbprint)
        let reply = try admitted.sealResult(admitted.request.body)
        #expect(sessionErrorCode { _ = try admitted.sealResult(.null) } == .alreadyAnswered)
        #expect(try client.openResponse(reply, to: sealed) == .success(id: sealed.id, result: admitted.request.body))
    }

    @Test func aTooLargeAnswerUsesNothingUp() async throws {
        let harness = try SessionHarness()
        let (client, _) = try await harness.establish()
        let sealed = try client.sealRequest(handler: "echo", body: .null)
        let admitted = try #require(harness.table.open(sealed.envelope, memberGUID: member).admitted)
        let huge = JSONValue.string(String(repeating: "a", count: 70_000))
        #expect(sessionErrorCode { _ = try admitted.sealResult(huge) } == .messageTooLarge)
        let failure = SessionHandlerError(.init(rawValue: "payload_too_large"), "the answer is too large")
        let reply = try admitted.sealFailure(failure)
        #expect(try client.openResponse(reply, to: sealed) == .failure(id: sealed.id, error: failure))
    }

    @Test func aReplayedEnvelopeIsRefusedInTheClear() async throws {
        let harness = try SessionHarness()
        let (client, _) = try await harness.establish()
        let sealed = try client.sealRequest(handler: "echo", body: .null)
        #expect(harness.table.open(sealed.envelope, memberGUID: member).admitted != nil)
        let replay = harness.table.open(sealed.envelope, memberGUID: member)
        #expect(replay.refusalCode == .replayed)
        #expect(replay.isSealedRefusal == false)
        let reply = try #require(replay.reply)
        #expect(SessionRefusal.isRefusal(reply))
        #expect(sessionErrorCode { _ = try client.openResponse(reply, to: sealed) } == .replayed)
    }

    @Test func aLateGapNumberIsOutOfOrderAndAnsweredSealed() async throws {
        let harness = try SessionHarness(reorderWait: .zero)
        let (client, _) = try await harness.establish()
        let first = try client.sealRequest(handler: "echo", body: .null)
        let second = try client.sealRequest(handler: "echo", body: .null)
        #expect(harness.table.open(second.envelope, memberGUID: member).admitted != nil)
        let late = harness.table.open(first.envelope, memberGUID: member)
        #expect(late.refusalCode == .outOfOrder)
        #expect(late.isSealedRefusal == true)
        let answer = try client.openResponse(try #require(late.reply), to: first)
        guard case .failure(let id, let error) = answer else {
            Issue.record("expected a failure, got \(answer)")
            return
        }
        #expect(id == first.id)
        #expect(error.code.rawValue == "out_of_order")
        // And the same envelope again is now a replay, in the clear.
        #expect(harness.table.open(first.envelope, memberGUID: member).refusalCode == .replayed)
    }

    @Test func pipelinedRequestsReadInAnotherOrderAreBothAdmittedAtOnce() async throws {
        let harness = try SessionHarness(reorderWait: .seconds(30))
        let (client, _) = try await harness.establish()
        let first = try client.sealRequest(handler: "echo", body: .null)
        let second = try client.sealRequest(handler: "echo", body: .null)
        #expect(harness.table.open(second.envelope, memberGUID: member).admitted?.sequence == 2)
        #expect(harness.table.open(first.envelope, memberGUID: member).admitted?.sequence == 1)
    }

    @Test func aGapNumberArrivingAfterTheReorderWaitIsOutOfOrder() async throws {
        let harness = try SessionHarness(reorderWait: .milliseconds(20))
        let (client, _) = try await harness.establish()
        let first = try client.sealRequest(handler: "echo", body: .null)
        let second = try client.sealRequest(handler: "echo", body: .null)
        #expect(harness.table.open(second.envelope, memberGUID: member).admitted?.sequence == 2)
        // Only a lower bound on time: the window has certainly closed after twice its length.
        try await Task.sleep(for: .milliseconds(40))
        #expect(harness.table.open(first.envelope, memberGUID: member).refusalCode == .outOfOrder)
    }

    @Test func everyTruncationIsRefusedAndUsesNothingUp() async throws {
        let harness = try SessionHarness()
        let (client, _) = try await harness.establish(suites: [.x25519])
        let sealed = try client.sealRequest(handler: "echo", body: .null)
        for length in 0..<sealed.envelope.count {
            let outcome = harness.table.open(Array(sealed.envelope.prefix(length)), memberGUID: member)
            let expected: SessionError.Code = length < SessionEnvelope.minimumLength ? .malformedEnvelope : .badEnvelope
            #expect(outcome.refusalCode == expected, "length \(length)")
            #expect(outcome.isSealedRefusal == false)
        }
        #expect(harness.table.open(sealed.envelope, memberGUID: member).admitted != nil)
    }

    @Test func everyFlippedHeaderBitIsRefused() async throws {
        let harness = try SessionHarness(maxMessages: 1000)
        let (client, _) = try await harness.establish(suites: [.x25519])
        let sealed = try client.sealRequest(handler: "echo", body: .null)
        for index in 0..<SessionEnvelopeHeader.length {
            for bit in 0..<8 {
                var bytes = sealed.envelope
                bytes[index] ^= 1 << bit
                let expected: SessionError.Code
                switch index {
                case 0: expected = .unsupportedVersion
                case 1...2: expected = .suiteMismatch
                case 3: expected = .malformedEnvelope
                case 4..<20: expected = .unknownSession
                default:
                    let sequence = bytes[20..<28].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                    expected = sequence == 0 ? .malformedEnvelope : sequence > 1000 ? .sessionExpired : .badEnvelope
                }
                let outcome = harness.table.open(bytes, memberGUID: member)
                #expect(outcome.refusalCode == expected, "byte \(index) bit \(bit)")
                #expect(outcome.isSealedRefusal == false)
            }
        }
        #expect(harness.table.open(sealed.envelope, memberGUID: member).admitted != nil)
    }

    @Test func everyFlippedBodyBitIsABadEnvelope() async throws {
        let harness = try SessionHarness()
        let (client, _) = try await harness.establish(suites: [.x25519])
        let sealed = try client.sealRequest(handler: "echo", body: .null)
        for index in SessionEnvelopeHeader.length..<sealed.envelope.count {
            var bytes = sealed.envelope
            bytes[index] ^= 1 << (index % 8)
            #expect(harness.table.open(bytes, memberGUID: member).refusalCode == .badEnvelope, "byte \(index)")
        }
        #expect(harness.table.open(sealed.envelope, memberGUID: member).admitted != nil)
    }

    @Test func anotherSessionsOrAnotherMembersEnvelopeIsRefused() async throws {
        let harness = try SessionHarness()
        let (alice, aliceSession) = try await harness.establish()
        let (_, otherSession) = try await harness.establish()
        let sealed = try alice.sealRequest(handler: "echo", body: .null)
        // Presented under another member's subject: that member has no such session.
        let crossMember = harness.table.open(sealed.envelope, memberGUID: SessionHarness.otherMemberGUID)
        #expect(crossMember.refusalCode == .unknownSession)
        // Relabelled with another session of the same member: its keys do not open it.
        var relabelled = sealed.envelope
        relabelled.replaceSubrange(4..<20, with: otherSession.id.bytes)
        #expect(harness.table.open(relabelled, memberGUID: member).refusalCode == .badEnvelope)
        #expect(aliceSession.id != otherSession.id)
        // An unknown session id.
        var unknown = sealed.envelope
        unknown.replaceSubrange(4..<20, with: [UInt8](repeating: 0xEE, count: 16))
        #expect(harness.table.open(unknown, memberGUID: member).refusalCode == .unknownSession)
        #expect(harness.table.open(sealed.envelope, memberGUID: member).admitted != nil)
    }

    @Test func aResponseFlaggedEnvelopeIsMalformed() async throws {
        let harness = try SessionHarness()
        let (client, _) = try await harness.establish()
        let sealed = try client.sealRequest(handler: "echo", body: .null)
        let admitted = try #require(harness.table.open(sealed.envelope, memberGUID: member).admitted)
        let reply = try admitted.sealResult(.null)
        #expect(harness.table.open(reply, memberGUID: member).refusalCode == .malformedEnvelope)
    }

    @Test func anExpiredSessionIsRefusedAndDropped() async throws {
        let harness = try SessionHarness(lifetime: .seconds(3600))
        let (client, session) = try await harness.establish()
        let sealed = try client.sealRequest(handler: "echo", body: .null, validFor: .seconds(7200))
        harness.clock.advance(milliseconds: 3_600_000)
        #expect(harness.table.open(sealed.envelope, memberGUID: member).refusalCode == .sessionExpired)
        #expect(harness.table.session(session.id) == nil)
        #expect(!client.isUsable())
        #expect(sessionErrorCode { _ = try client.sealRequest(handler: "echo", body: .null) } == .sessionExpired)
    }

    @Test func numbersBeyondTheLimitAreRefused() async throws {
        let harness = try SessionHarness(maxMessages: 3)
        let (client, _) = try await harness.establish()
        for _ in 0..<3 {
            let sealed = try client.sealRequest(handler: "echo", body: .null)
            #expect(harness.table.open(sealed.envelope, memberGUID: member).admitted != nil)
        }
        #expect(client.remainingRequests == 0)
        #expect(sessionErrorCode { _ = try client.sealRequest(handler: "echo", body: .null) } == .sessionExpired)
        // Sequence 4, sealed with the session's key, is refused before the AEAD.
        let session = try #require(harness.table.session(client.sessionID))
        let header = SessionEnvelopeHeader(suite: session.suite, isResponse: false, sessionID: session.id, sequence: 4)
        let padded = try session.channel.padding.pad(Array(#"{"id":"x","handler":"echo","body":null,"exp":0}"#.utf8))
        let envelope = SessionEnvelope.seal(padded, header: header, key: session.channel.keys.appToVault).bytes
        #expect(harness.table.open(envelope, memberGUID: member).refusalCode == .sessionExpired)
    }

    @Test func paddingErrorsAreRefusedInTheClear() async throws {
        let harness = try SessionHarness()
        let (_, session) = try await harness.establish(suites: [.x25519])
        let key = session.channel.keys.appToVault
        let cases: [([UInt8], SessionError.Code)] = [
            ([UInt8](repeating: 0, count: 512), .badPadding),
            (Array("{}".utf8) + [0x81] + [UInt8](repeating: 0, count: 509), .badPadding),
            (Array("{}".utf8) + [0x80] + [UInt8](repeating: 0, count: 10), .badPadding),
            ([0x80] + [UInt8](repeating: 0, count: 65535), .messageTooLarge),
        ]
        for (sequence, (padded, code)) in cases.enumerated() {
            let header = SessionEnvelopeHeader(
                suite: .x25519, isResponse: false, sessionID: session.id, sequence: UInt64(sequence + 1))
            let envelope = SessionEnvelope.seal(padded, header: header, key: key).bytes
            let outcome = harness.table.open(envelope, memberGUID: member)
            #expect(outcome.refusalCode == code)
            #expect(outcome.isSealedRefusal == false)
        }
    }

    @Test func malformedAndExpiredInnerRequestsAreAnsweredSealed() async throws {
        let harness = try SessionHarness()
        let (client, session) = try await harness.establish(suites: [.x25519])
        let expired = try client.seal(
            SessionInnerRequest(
                id: "r-1", handler: "echo", body: .null, expiresAtMilliseconds: Int64(harness.clock.unixMilliseconds)))
        let outcome = harness.table.open(expired.envelope, memberGUID: member)
        #expect(outcome.refusalCode == .requestExpired)
        #expect(outcome.isSealedRefusal == true)
        let answer = try client.openResponse(try #require(outcome.reply), to: expired)
        #expect(
            answer
                == .failure(
                    id: "r-1",
                    error: SessionHandlerError(.init(rawValue: "request_expired"), "the request's exp has passed")))

        // Sequence 2, sealed with the session's key around an inner message that is not a request.
        let key = session.channel.keys.appToVault
        let header = SessionEnvelopeHeader(suite: .x25519, isResponse: false, sessionID: session.id, sequence: 2)
        let padded = try session.channel.padding.pad(Array(#"{"id":"r-2","handler":"echo"}"#.utf8))
        let malformed = harness.table.open(
            SessionEnvelope.seal(padded, header: header, key: key).bytes, memberGUID: member)
        #expect(malformed.refusalCode == .malformedMessage)
        #expect(malformed.isSealedRefusal == true)
        let channel = SessionChannel(sessionID: session.id, suite: .x25519, keys: session.channel.keys)
        let reply = try SessionInnerResponse(decoding: channel.openResponse(try #require(malformed.reply), sequence: 2))
        #expect(reply.id == "r-2")
    }

    @Test func boundsPerDeviceAndInTotal() async throws {
        let harness = try SessionHarness(table: .init(maxSessionsPerDevice: 2, maxSessions: 3))
        var sessions: [SealedSession] = []
        for _ in 0..<3 { sessions.append(try await harness.establish().session) }
        // The device's oldest was dropped beyond 2.
        #expect(harness.table.count == 2)
        #expect(harness.table.session(sessions[0].id) == nil)
        // Another device's sessions count towards the total; the least recently used goes first.
        let other = SoftwareDPoPSigner()
        let (otherClient, otherFirst) = try await harness.establish(device: other)
        _ = otherClient
        #expect(harness.table.count == 3)
        let (_, otherSecond) = try await harness.establish(device: other)
        #expect(harness.table.count == 3)
        #expect(harness.table.session(sessions[1].id) == nil)
        #expect(harness.table.session(sessions[2].id) != nil)
        #expect(harness.table.session(otherFirst.id) != nil)
        #expect(harness.table.session(otherSecond.id) != nil)
        #expect(
            harness.table.removeSessions(memberGUID: member, deviceThumbprint: other.publicJWK.thumbprint) == 2)
        #expect(harness.table.count == 1)
    }
}
