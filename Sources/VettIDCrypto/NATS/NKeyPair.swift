// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// NKeys: Ed25519 keys with a typed, checksummed base32 text form (nats-io/nkeys strkey.go).

import Crypto
public import VettIDCore

/// An Ed25519 key pair (or public key alone) in the NKeys encoding used by NATS.
///
/// A public key is `prefix(1) ‖ ed25519 public key(32) ‖ crc16(2, little-endian)` in base32 (56 characters).
/// A seed is `b1 ‖ b2 ‖ ed25519 seed(32) ‖ crc16` (58 characters, starting `SU`, `SA`, `SO`…), where
/// `b1 = 0x90 | type >> 5` and `b2 = (type & 31) << 3`.
///
/// The seed is secret: ``description`` prints only the public key, and the seed is available only
/// through ``encodedSeed()``.
public struct NKeyPair: Sendable, CustomStringConvertible {
    /// The key's role.
    public let type: NKeyType
    /// The 32-byte Ed25519 public key.
    public let publicKeyBytes: [UInt8]
    /// The encoded public key (`U…`, `A…`, `O…`).
    public let publicKey: String
    private let privateKey: Curve25519.Signing.PrivateKey?

    /// Creates a fresh random key pair of `type`.
    public static func generate(_ type: NKeyType) -> NKeyPair {
        NKeyPair(type: type, privateKey: Curve25519.Signing.PrivateKey())
    }

    /// Decodes an encoded seed (`S…`) into a full key pair.
    public init(seed: String) throws(NKeyError) {
        let raw = try Self.decodeChecked(seed)
        // `raw` is the checked body without its 2 CRC bytes: 2 prefix bytes + 32 seed bytes.
        guard raw.count == 34 else {
            throw NKeyError(.invalidLength, "a seed decodes to 36 bytes, got \(raw.count + 2)")
        }
        guard raw[0] & 0xF8 == NKeyType.seedPrefixByte else {
            throw NKeyError(.invalidSeed, "the text is not an NKey seed")
        }
        let typePrefix = ((raw[0] & 0x07) << 5) | (raw[1] >> 3)
        guard let type = NKeyType(prefixByte: typePrefix) else {
            throw NKeyError(.invalidPrefix, "unknown key type in seed")
        }
        let key: Curve25519.Signing.PrivateKey
        do {
            key = try Curve25519.Signing.PrivateKey(rawRepresentation: raw[2..<34])
        } catch {
            throw NKeyError(.invalidSeed, "the seed is not a valid Ed25519 seed")
        }
        self.init(type: type, privateKey: key)
    }

    /// A key pair of `type` from a raw 32-byte Ed25519 seed (a derived key, for example); the encoded form of the
    /// same pair is ``encodedSeed()``.
    public init(type: NKeyType, rawSeed: [UInt8]) throws(NKeyError) {
        let key: Curve25519.Signing.PrivateKey
        do {
            key = try Curve25519.Signing.PrivateKey(rawRepresentation: rawSeed)
        } catch {
            throw NKeyError(.invalidSeed, "an Ed25519 seed has 32 bytes")
        }
        self.init(type: type, privateKey: key)
    }

    /// Decodes an encoded public key, optionally requiring a type. The result can only verify.
    public init(publicKey: String, expectedType: NKeyType? = nil) throws(NKeyError) {
        let raw = try Self.decodeChecked(publicKey)
        // `raw` is the checked body without its 2 CRC bytes: 1 prefix byte + 32 key bytes.
        guard raw.count == 33 else {
            throw NKeyError(.invalidLength, "a public key decodes to 35 bytes, got \(raw.count + 2)")
        }
        guard let type = NKeyType(prefixByte: raw[0]) else {
            throw NKeyError(.invalidPrefix, "unknown public key prefix")
        }
        if let expectedType, expectedType != type {
            throw NKeyError(.invalidPrefix, "expected a \(expectedType) key, got a \(type) key")
        }
        self.type = type
        self.publicKeyBytes = Array(raw[1..<33])
        self.publicKey = publicKey
        self.privateKey = nil
    }

    private init(type: NKeyType, privateKey: Curve25519.Signing.PrivateKey) {
        self.type = type
        self.privateKey = privateKey
        let keyBytes = Array(privateKey.publicKey.rawRepresentation)
        self.publicKeyBytes = keyBytes
        self.publicKey = Self.encodeChecked([type.prefixByte] + keyBytes)
    }

    /// Whether this pair can sign (it was made from a seed or generated).
    public var canSign: Bool { privateKey != nil }

    /// The encoded seed. Secret: never log it.
    public func encodedSeed() throws(NKeyError) -> String {
        guard let privateKey else { throw NKeyError(.publicKeyOnly, "no seed for a public-key-only NKey") }
        let prefix = type.prefixByte
        let header: [UInt8] = [NKeyType.seedPrefixByte | (prefix >> 5), (prefix & 31) << 3]
        return Self.encodeChecked(header + Array(privateKey.rawRepresentation))
    }

    /// Signs `message` with Ed25519 and returns the 64-byte signature.
    public func sign<Bytes: Sequence<UInt8>>(_ message: Bytes) throws(NKeyError) -> [UInt8] {
        guard let privateKey else { throw NKeyError(.publicKeyOnly, "cannot sign with a public-key-only NKey") }
        do {
            return Array(try privateKey.signature(for: Array(message)))
        } catch {
            throw NKeyError(.signingFailed, "Ed25519 signing failed")
        }
    }

    /// Verifies an Ed25519 `signature` over `message`.
    public func verify<Message: Sequence<UInt8>, Signature: Sequence<UInt8>>(
        _ message: Message,
        signature: Signature
    ) -> Bool {
        guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: publicKeyBytes) else { return false }
        return key.isValidSignature(Array(signature), for: Array(message))
    }

    /// The encoded public key and its type; never the seed.
    public var description: String { "NKeyPair(\(type): \(publicKey))" }

    /// Whether `text` decodes as a well-formed public key of `type` (any type if `nil`).
    public static func isValidPublicKey(_ text: String, type: NKeyType? = nil) -> Bool {
        (try? NKeyPair(publicKey: text, expectedType: type)) != nil
    }

    private static func decodeChecked(_ text: String) throws(NKeyError) -> [UInt8] {
        guard let raw = Base32.decode(text) else { throw NKeyError(.invalidEncoding, "not valid base32") }
        guard raw.count > 2 else { throw NKeyError(.invalidLength, "too short for an NKey") }
        let body = raw.dropLast(2)
        let stored = UInt16(raw[raw.count - 2]) | UInt16(raw[raw.count - 1]) << 8
        guard CRC16.xmodem(body) == stored else { throw NKeyError(.invalidChecksum, "checksum mismatch") }
        return Array(body)
    }

    private static func encodeChecked(_ body: [UInt8]) -> String {
        let crc = CRC16.xmodem(body)
        return Base32.encode(body + [UInt8(truncatingIfNeeded: crc), UInt8(truncatingIfNeeded: crc >> 8)])
    }
}
