// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

// The 28-byte clear header of every sealed message; it is the AEAD's additional data.

/// The header of a ``SessionEnvelope``, in the clear and authenticated as the AEAD's additional data.
///
/// ```
/// u8 version = 0x01 | u16 suite | u8 flags (bit 0: response; other bits 0) | 16 session_id | u64 seq (>= 1)
/// ```
public struct SessionEnvelopeHeader: Sendable, Hashable {
    /// The header's length.
    public static let length = 28
    /// The envelope version this type speaks.
    public static let version: UInt8 = 0x01
    /// Flag bit 0: the envelope is a response (vault -> app).
    public static let responseFlag: UInt8 = 0x01

    /// The session's suite.
    public let suite: SessionSuite
    /// Whether this is a response (vault -> app); requests have it clear.
    public let isResponse: Bool
    /// The session.
    public let sessionID: SessionID
    /// The request's sequence number: 1, 2, 3, … per session; a response carries its request's.
    public let sequence: UInt64

    /// A header; `sequence` must be at least 1.
    public init(suite: SessionSuite, isResponse: Bool, sessionID: SessionID, sequence: UInt64) {
        precondition(sequence >= 1, "sequence numbers start at 1")
        self.suite = suite
        self.isResponse = isResponse
        self.sessionID = sessionID
        self.sequence = sequence
    }

    /// Parses the first 28 bytes of an envelope.
    /// - Throws: `malformed_envelope` (fewer than 28 bytes, reserved flag bits, sequence 0), `unsupported_version`.
    public init(parsing bytes: [UInt8]) throws(SessionError) {
        var reader = ByteReader(bytes)
        guard bytes.count >= Self.length, let version = reader.u8(), let suite = reader.u16(), let flags = reader.u8(),
            let id = reader.bytes(SessionID.length), let sequence = reader.u64()
        else { throw SessionError(.malformedEnvelope, "an envelope starts with a 28-byte header") }
        guard version == Self.version else {
            throw SessionError(.unsupportedVersion, "envelope version \(version) is not supported (1 is)")
        }
        guard flags & ~Self.responseFlag == 0 else {
            throw SessionError(.malformedEnvelope, "reserved flag bits are set")
        }
        guard sequence >= 1 else { throw SessionError(.malformedEnvelope, "sequence 0 is not valid") }
        self.init(
            suite: SessionSuite(rawValue: suite), isResponse: flags == Self.responseFlag,
            sessionID: SessionID(validBytes: id), sequence: sequence)
    }

    /// The 28 bytes.
    public var bytes: [UInt8] {
        var bytes: [UInt8] = [Self.version]
        bytes.reserveCapacity(Self.length)
        bytes.appendU16(suite.rawValue)
        bytes.append(isResponse ? Self.responseFlag : 0)
        bytes.append(contentsOf: sessionID.bytes)
        bytes.appendU64(sequence)
        return bytes
    }

    /// The ChaCha20-Poly1305 nonce: 4 zero bytes, then the sequence number (big-endian).
    var nonce: [UInt8] {
        var nonce: [UInt8] = [0, 0, 0, 0]
        nonce.appendU64(sequence)
        return nonce
    }
}
