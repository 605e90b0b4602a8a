// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
public import VettIDCore

// A sealed message: the clear header, then the ChaCha20-Poly1305 ciphertext of the padded inner message and its tag.

/// A sealed message of a session, in either direction.
///
/// ```
/// header (28 bytes, the AAD) || ChaCha20-Poly1305(key, nonce = 0x00000000 || seq, aad = header, padded inner)
/// ```
///
/// The key is `k_a2v` for requests and `k_v2a` for responses. Sealing is deterministic: the same key, header and
/// plaintext give the same bytes, which is why a (key, sequence) pair must never seal two different plaintexts.
public struct SessionEnvelope: Sendable, Hashable {
    /// The Poly1305 tag's length.
    public static let tagLength = 16
    /// The shortest envelope: a header and a tag.
    public static let minimumLength = SessionEnvelopeHeader.length + tagLength

    /// The clear header.
    public let header: SessionEnvelopeHeader
    /// The ciphertext followed by the 16-byte tag.
    public let sealedBody: [UInt8]

    /// Splits envelope bytes into header and sealed body.
    /// - Throws: the header's errors, and `malformed_envelope` when no 16-byte tag follows the header.
    public init(parsing bytes: [UInt8]) throws(SessionError) {
        let header = try SessionEnvelopeHeader(parsing: bytes)
        guard bytes.count >= Self.minimumLength else {
            throw SessionError(.malformedEnvelope, "an envelope is at least a 28-byte header and a 16-byte tag")
        }
        self.header = header
        self.sealedBody = Array(bytes[SessionEnvelopeHeader.length...])
    }

    private init(header: SessionEnvelopeHeader, sealedBody: [UInt8]) {
        self.header = header
        self.sealedBody = sealedBody
    }

    /// Seals `padded` under `key` (32 bytes) with `header` as additional data.
    public static func seal(_ padded: [UInt8], header: SessionEnvelopeHeader, key: [UInt8]) -> SessionEnvelope {
        let bytes = sealedBytes(padded, header: header, key: SymmetricKey(data: key))
        return SessionEnvelope(header: header, sealedBody: Array(bytes[SessionEnvelopeHeader.length...]))
    }

    /// The bytes of `padded` sealed under `key` with `header` as additional data: header, ciphertext, tag, written
    /// into one array (the request path's form; no intermediate envelope).
    static func sealedBytes(_ padded: [UInt8], header: SessionEnvelopeHeader, key: SymmetricKey) -> [UInt8] {
        let headerBytes = header.bytes
        do {
            let box = try ChaChaPoly.seal(
                padded, using: key, nonce: ChaChaPoly.Nonce(data: header.nonce), authenticating: headerBytes)
            var bytes = headerBytes
            bytes.reserveCapacity(SessionEnvelopeHeader.length + padded.count + tagLength)
            bytes.append(contentsOf: box.ciphertext)
            bytes.append(contentsOf: box.tag)
            return bytes
        } catch {
            // Only a key or nonce of the wrong length fails, and both are fixed by construction.
            preconditionFailure("ChaCha20-Poly1305 sealing failed: \(error)")
        }
    }

    /// Opens the body under `key` with the header as additional data.
    /// - Returns: the padded inner message.
    /// - Throws: `bad_envelope` when the tag does not verify.
    public func open(key: [UInt8]) throws(SessionError) -> [UInt8] {
        try open(key: SymmetricKey(data: key))
    }

    /// ``open(key:)`` with the key already made.
    func open(key: SymmetricKey) throws(SessionError) -> [UInt8] {
        do {
            let box = try ChaChaPoly.SealedBox(
                nonce: ChaChaPoly.Nonce(data: header.nonce), ciphertext: sealedBody.dropLast(Self.tagLength),
                tag: sealedBody.suffix(Self.tagLength))
            return Array(try ChaChaPoly.open(box, using: key, authenticating: header.bytes))
        } catch {
            throw SessionError(.badEnvelope, "the envelope does not open")
        }
    }

    /// The envelope's bytes: header, ciphertext, tag.
    public var bytes: [UInt8] { header.bytes + sealedBody }
}
