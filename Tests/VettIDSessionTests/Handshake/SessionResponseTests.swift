// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Testing
import VettIDSession

/// The response's strict layout.
@Suite struct SessionResponseTests {
    static func sample(vaultSuites: [SessionSuite] = [.xWing, .x25519]) throws -> SessionResponse {
        try SessionResponse(
            suite: .x25519, vaultSuites: vaultSuites,
            sessionID: #require(SessionID(bytes: countingBytes(from: 0x40, count: 16))),
            nonce: countingBytes(from: 0x20, count: 32), vaultKID: "vault-2026-1",
            expiresAtMilliseconds: 1_767_312_000_000, maxMessages: 1000,
            encapsulatedKey: [UInt8](repeating: 7, count: 32),
            vaultSignature: [UInt8](repeating: 1, count: 64))
    }

    @Test func serializesAndParsesBack() throws {
        let sample = try Self.sample()
        #expect(try SessionResponse(parsing: sample.bytes) == sample)
        #expect(sample.bytes.count == 4 + 1 + 4 + 16 + 32 + 13 + 8 + 4 + 34 + 64)
        #expect(sample.signedBytes == Array(sample.bytes.dropLast(64)))
    }

    @Test func everyTruncationIsMalformed() throws {
        let bytes = try Self.sample().bytes
        for length in 0..<bytes.count {
            #expect(
                sessionErrorCode { _ = try SessionResponse(parsing: Array(bytes.prefix(length))) }
                    == .malformedHandshake,
                "length \(length)")
        }
        #expect(sessionErrorCode { _ = try SessionResponse(parsing: bytes + [0]) } == .malformedHandshake)
    }

    @Test func typeVersionAndFieldsAreChecked() throws {
        var bytes = try Self.sample().bytes
        bytes[0] = 0x01
        #expect(sessionErrorCode { _ = try SessionResponse(parsing: bytes) } == .malformedHandshake)
        bytes[0] = 0x02
        bytes[1] = 0x09
        #expect(sessionErrorCode { _ = try SessionResponse(parsing: bytes) } == .unsupportedVersion)
        #expect(sessionErrorCode { _ = try Self.sample(vaultSuites: []) } == .malformedHandshake)
        #expect(sessionErrorCode { _ = try Self.sample(vaultSuites: [.x25519, .x25519]) } == .malformedHandshake)
        let sample = try Self.sample()
        #expect(
            sessionErrorCode {
                _ = try SessionResponse(
                    suite: .x25519, vaultSuites: [.x25519], sessionID: sample.sessionID, nonce: sample.nonce,
                    vaultKID: "k", expiresAtMilliseconds: 1, maxMessages: 0, encapsulatedKey: [1])
            } == .malformedHandshake)
    }
}
