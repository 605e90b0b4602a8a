// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Testing
import VettIDCrypto
import VettIDSession

/// The header layout, the envelope's minimum, and the channel's checks in each direction.
@Suite struct SessionEnvelopeTests {
    static let id = SessionID(bytes: countingBytes(from: 0x40, count: 16))!

    @Test func theHeaderIs28BytesAndParsesBack() throws {
        let header = SessionEnvelopeHeader(suite: .x25519, isResponse: true, sessionID: Self.id, sequence: 0x0102)
        #expect(header.bytes == [0x01, 0x00, 0x01, 0x01] + Self.id.bytes + [0, 0, 0, 0, 0, 0, 0x01, 0x02])
        #expect(try SessionEnvelopeHeader(parsing: header.bytes) == header)
    }

    @Test func headerRefusals() throws {
        let good = SessionEnvelopeHeader(suite: .x25519, isResponse: false, sessionID: Self.id, sequence: 1).bytes
        for length in 0..<28 {
            #expect(
                sessionErrorCode { _ = try SessionEnvelopeHeader(parsing: Array(good.prefix(length))) }
                    == .malformedEnvelope)
        }
        var bytes = good
        bytes[0] = 2
        #expect(sessionErrorCode { _ = try SessionEnvelopeHeader(parsing: bytes) } == .unsupportedVersion)
        for bit in 1..<8 {
            bytes = good
            bytes[3] = 1 << bit
            #expect(
                sessionErrorCode { _ = try SessionEnvelopeHeader(parsing: bytes) } == .malformedEnvelope, "bit \(bit)")
        }
        bytes = good
        bytes[27] = 0
        #expect(sessionErrorCode { _ = try SessionEnvelopeHeader(parsing: bytes) } == .malformedEnvelope)
    }

    @Test func anEnvelopeNeedsATag() throws {
        let header = SessionEnvelopeHeader(suite: .x25519, isResponse: false, sessionID: Self.id, sequence: 1).bytes
        #expect(
            sessionErrorCode { _ = try SessionEnvelope(parsing: header + [UInt8](repeating: 0, count: 15)) }
                == .malformedEnvelope)
        #expect(try SessionEnvelope(parsing: header + [UInt8](repeating: 0, count: 16)).sealedBody.count == 16)
    }

    @Test func theChannelChecksDirectionSessionSequenceAndSuite() async throws {
        let harness = try SessionHarness()
        let (client, _) = try await harness.establish(suites: [.x25519])
        let sealed = try client.sealRequest(handler: "echo", body: .null)
        let outcome = harness.table.open(sealed.envelope, memberGUID: SessionHarness.memberGUID)
        let admitted = try #require(outcome.admitted)
        let reply = try admitted.sealResult(.string("ok"))

        // A request envelope where the app expects a response.
        #expect(sessionErrorCode { _ = try client.openResponse(sealed.envelope, to: sealed) } == .malformedEnvelope)
        // The response with another sequence number in its header (sealed with 1): a mismatch before the AEAD.
        var otherSequence = reply
        otherSequence[27] = 2
        #expect(sessionErrorCode { _ = try client.openResponse(otherSequence, to: sealed) } == .responseMismatch)
        var otherSuite = reply
        otherSuite[2] = 2
        #expect(sessionErrorCode { _ = try client.openResponse(otherSuite, to: sealed) } == .suiteMismatch)
        var tampered = reply
        tampered[40] ^= 0x01
        #expect(sessionErrorCode { _ = try client.openResponse(tampered, to: sealed) } == .badEnvelope)
        #expect(try client.openResponse(reply, to: sealed) == .success(id: admitted.request.id, result: .string("ok")))
    }
}
