// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Crypto
public import VettIDCore
import VettIDCrypto

// The first handshake message, app -> vault, on OwnerSpace.{guid}.forVault.session.

/// The app's handshake message: who it is (the enrolled device key), which vault key it expects, a fresh nonce, the
/// suites it offers with an ephemeral key each, and the device's signature over all of it.
///
/// Layout (big-endian; `str8` = u8 length + bytes, `bytes16` = u16 length + bytes):
///
/// ```
/// u8 type = 0x01 | u8 version = 0x01 | str8 member_guid | 65 device_public_key (X9.63 uncompressed)
/// str8 vault_kid | u64 timestamp_ms | 32 nonce_a
/// u8 offer_count (1...4), per offer: u16 suite, bytes16 ephemeral public key
/// 64 device_signature (ES256 raw r||s over "VettID session v1 init" || everything before it)
/// ```
///
/// Parsing is strict: exact lengths, no trailing bytes, 1 to 4 offers of distinct suites, a known suite's key of its
/// exact length (an unknown suite is kept and never chosen), text fields of 1 to 255 bytes of UTF-8, a device key
/// on P-256. Building checks the same rules, so every value of this type serializes to bytes that parse back to it.
public struct SessionInit: Sendable, Equatable {
    /// The `type` byte.
    public static let messageType: UInt8 = 0x01
    /// The protocol version this type speaks.
    public static let version: UInt8 = 0x01
    /// The most offers an init may carry.
    public static let maxOffers = 4

    /// The member whose vault is addressed; must equal the `{guid}` of the subject.
    public let memberGUID: String
    /// The enrolled device's P-256 public key; its RFC 7638 thumbprint names the device.
    public let devicePublicKey: P256.Signing.PublicKey
    /// The kid of the vault identity key the app expects (informative: the vault may sign with another pinned one).
    public let vaultKID: String
    /// The app's clock, Unix milliseconds.
    public let timestampMilliseconds: UInt64
    /// `nonce_a`: 32 random bytes, never used twice.
    public let nonce: [UInt8]
    /// The offers, most preferred first.
    public let offers: [SessionOffer]
    /// `device_signature`: ES256, raw `r || s`, over ``signatureInput``.
    public let deviceSignature: [UInt8]

    /// Builds an init from its fields, checked as the parser checks them (`malformed_handshake`).
    ///
    /// Build it with a zero signature, sign ``signatureInput``, then use ``signed(_:)``.
    public init(
        memberGUID: String, devicePublicKey: P256.Signing.PublicKey, vaultKID: String, timestampMilliseconds: UInt64,
        nonce: [UInt8], offers: [SessionOffer], deviceSignature: [UInt8] = [UInt8](repeating: 0, count: 64)
    ) throws(SessionError) {
        guard UTF8Field.isValid(memberGUID) else { throw Self.malformed("member_guid must be 1 to 255 bytes") }
        guard UTF8Field.isValid(vaultKID) else { throw Self.malformed("vault_kid must be 1 to 255 bytes") }
        guard nonce.count == 32 else { throw Self.malformed("nonce_a must be 32 bytes") }
        guard deviceSignature.count == 64 else { throw Self.malformed("device_signature must be 64 bytes") }
        try Self.checkOffers(offers)
        self.memberGUID = memberGUID
        self.devicePublicKey = devicePublicKey
        self.vaultKID = vaultKID
        self.timestampMilliseconds = timestampMilliseconds
        self.nonce = nonce
        self.offers = offers
        self.deviceSignature = deviceSignature
    }

    /// Parses an init strictly.
    /// - Throws: `unsupported_version` for another version, `malformed_handshake` for anything else wrong.
    public init(parsing bytes: [UInt8]) throws(SessionError) {
        var reader = ByteReader(bytes)
        guard let type = reader.u8(), type == Self.messageType else { throw Self.malformed("type must be 0x01") }
        guard let version = reader.u8() else { throw Self.malformed("the init ends before its version") }
        guard version == Self.version else {
            throw SessionError(.unsupportedVersion, "init version \(version) is not supported (1 is)")
        }
        guard let guidBytes = reader.str8(), let memberGUID = UTF8Field.decode(guidBytes) else {
            throw Self.malformed("member_guid must be 1 to 255 bytes of UTF-8")
        }
        guard let keyBytes = reader.bytes(65) else { throw Self.malformed("device_public_key must be 65 bytes") }
        guard keyBytes[0] == 0x04, let deviceKey = try? P256.Signing.PublicKey(x963Representation: keyBytes) else {
            throw Self.malformed("device_public_key is not an uncompressed P-256 point")
        }
        guard let kidBytes = reader.str8(), let vaultKID = UTF8Field.decode(kidBytes) else {
            throw Self.malformed("vault_kid must be 1 to 255 bytes of UTF-8")
        }
        guard let timestamp = reader.u64(), let nonce = reader.bytes(32) else {
            throw Self.malformed("the init ends inside timestamp_ms or nonce_a")
        }
        guard let count = reader.u8(), (1...Self.maxOffers).contains(Int(count)) else {
            throw Self.malformed("offer_count must be 1 to \(Self.maxOffers)")
        }
        var offers: [SessionOffer] = []
        for _ in 0..<count {
            guard let suite = reader.u16(), let key = reader.bytes16() else {
                throw Self.malformed("the init ends inside an offer")
            }
            offers.append(SessionOffer(suite: SessionSuite(rawValue: suite), ephemeralPublicKey: key))
        }
        guard let signature = reader.bytes(64) else { throw Self.malformed("device_signature must be 64 bytes") }
        guard reader.isAtEnd else { throw Self.malformed("bytes follow the device signature") }
        try self.init(
            memberGUID: memberGUID, devicePublicKey: deviceKey, vaultKID: vaultKID, timestampMilliseconds: timestamp,
            nonce: nonce, offers: offers, deviceSignature: signature)
    }

    /// The init without its signature: what the device signs after the label.
    public var signedBytes: [UInt8] {
        var bytes: [UInt8] = [Self.messageType, Self.version]
        bytes.appendStr8(Array(memberGUID.utf8))
        bytes.append(contentsOf: devicePublicKey.x963Representation)
        bytes.appendStr8(Array(vaultKID.utf8))
        bytes.appendU64(timestampMilliseconds)
        bytes.append(contentsOf: nonce)
        bytes.append(UInt8(offers.count))
        for offer in offers {
            bytes.appendU16(offer.suite.rawValue)
            bytes.appendBytes16(offer.ephemeralPublicKey)
        }
        return bytes
    }

    /// The whole message, signature included: what is published, and what `init_hash` hashes.
    public var bytes: [UInt8] { signedBytes + deviceSignature }

    /// `"VettID session v1 init" || signedBytes`: the ES256 signing input of the device signature.
    public var signatureInput: [UInt8] { SessionLabels.initSignature + signedBytes }

    /// The same init with `signature` as its device signature (64 bytes, else `malformed_handshake`).
    public func signed(_ signature: [UInt8]) throws(SessionError) -> SessionInit {
        try SessionInit(
            memberGUID: memberGUID, devicePublicKey: devicePublicKey, vaultKID: vaultKID,
            timestampMilliseconds: timestampMilliseconds, nonce: nonce, offers: offers, deviceSignature: signature)
    }

    /// Whether the device signature verifies with ``devicePublicKey`` over ``signatureInput``.
    public var hasValidDeviceSignature: Bool {
        ES256.isValid(signature: deviceSignature, for: signatureInput, publicKey: devicePublicKey)
    }

    /// The RFC 7638 thumbprint (`jkt`) of the device key: how the server names the enrolled device.
    public var deviceThumbprint: String { P256PublicJWK(publicKey: devicePublicKey).thumbprint }

    /// Compares the serialized bytes.
    public static func == (lhs: SessionInit, rhs: SessionInit) -> Bool { lhs.bytes == rhs.bytes }

    /// 1 to 4 offers, distinct suites, keys of 1 to 65535 bytes, a known suite's key of its exact length.
    private static func checkOffers(_ offers: [SessionOffer]) throws(SessionError) {
        guard (1...maxOffers).contains(offers.count) else {
            throw malformed("an init carries 1 to \(maxOffers) offers")
        }
        var seen = Set<SessionSuite>()
        for offer in offers {
            guard seen.insert(offer.suite).inserted else { throw malformed("suite \(offer.suite) is offered twice") }
            guard (1...Int(UInt16.max)).contains(offer.ephemeralPublicKey.count) else {
                throw malformed("an ephemeral key is 1 to 65535 bytes")
            }
            if let length = offer.suite.ephemeralPublicKeyLength, offer.ephemeralPublicKey.count != length {
                throw malformed("a \(offer.suite) ephemeral key is \(length) bytes")
            }
        }
    }

    private static func malformed(_ message: String) -> SessionError { SessionError(.malformedHandshake, message) }
}
