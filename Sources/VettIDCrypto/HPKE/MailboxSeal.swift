// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The sealed body of a mailbox message (docs/protocol.md 7.5).

public import Crypto
public import VettIDCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The family of ``MailboxSealError``.
public enum MailboxSealErrorDomain: ErrorDomain {}

/// Sealing or opening a mailbox message failed.
public typealias MailboxSealError = DomainError<MailboxSealErrorDomain>

extension MailboxSealError.Code {
    /// The mailbox key is not 32 bytes, or is an X25519 key no HPKE sender can seal to (a small-order point).
    public static let invalidKey = Self(rawValue: "invalid_key")
    /// The body is shorter than a version, an `enc` and a tag.
    public static let malformedBody = Self(rawValue: "malformed_body")
    /// The body's first byte is not a version this code reads.
    public static let unsupportedVersion = Self(rawValue: "unsupported_version")
    /// Authentication failed: another key, subject or message id, or a modified body.
    public static let openFailed = Self(rawValue: "open_failed")
    /// The subject or the message id is empty or longer than 65535 bytes, or sealing failed.
    public static let sealFailed = Self(rawValue: "seal_failed")
}

/// Seals a mailbox message to a device's mailbox key (the vault) and opens it (the device).
///
/// `body = 0x01 ‖ enc ‖ ciphertext ‖ tag`, HPKE base mode with `DHKEM(X25519, HKDF-SHA256), HKDF-SHA256,
/// ChaCha20-Poly1305`; `info = u16be ‖ "vettid-mailbox/v1" ‖ u16be ‖ subject` and the AAD is the message's
/// `Nats-Msg-Id`, so a message moved to another device's subject or given another id does not open.
public enum MailboxSeal {
    /// The body's version byte.
    public static let version: UInt8 = 1
    /// The HPKE cipher suite.
    public static let ciphersuite = HPKE.Ciphersuite.Curve25519_SHA256_ChachaPoly
    /// Bytes a sealed body adds to its plaintext: the version, `enc` and the tag.
    public static let overhead = 1 + 32 + 16
    static let label = Array("vettid-mailbox/v1".utf8)

    /// The mailbox key in `bytes` (32 raw bytes), refused when no HPKE sender can seal to it.
    ///
    /// - Throws: ``MailboxSealError`` `invalidKey`.
    public static func publicKey(_ bytes: [UInt8]) throws(MailboxSealError) -> Curve25519.KeyAgreement.PublicKey {
        guard bytes.count == 32, let key = try? Curve25519.KeyAgreement.PublicKey(rawRepresentation: bytes) else {
            throw MailboxSealError(.invalidKey, "a mailbox key is 32 bytes of X25519 public key")
        }
        // A small-order key would make the shared secret all zeros, known to anyone (swift-crypto does not refuse it).
        guard !X25519SmallOrder.contains(Array(bytes)) else {
            throw MailboxSealError(.invalidKey, "the mailbox key is a small-order point")
        }
        return key
    }

    /// HPKE's `info` for a message on `subject`.
    public static func info(subject: String) throws(MailboxSealError) -> [UInt8] {
        let subjectBytes = Array(subject.utf8)
        guard (1...0xFFFF).contains(subjectBytes.count) else {
            throw MailboxSealError(.sealFailed, "a subject is 1 to 65535 bytes")
        }
        var info: [UInt8] = []
        info.reserveCapacity(4 + label.count + subjectBytes.count)
        for part in [label, subjectBytes] {
            info.append(UInt8(part.count >> 8))
            info.append(UInt8(part.count & 0xFF))
            info.append(contentsOf: part)
        }
        return info
    }

    /// Seals `plaintext` for the device whose mailbox key is `recipient`, to be published on `subject` with
    /// `Nats-Msg-Id` `messageID`. Each call uses a fresh ephemeral key.
    public static func seal(
        _ plaintext: [UInt8],
        to recipient: Curve25519.KeyAgreement.PublicKey,
        subject: String,
        messageID: String
    ) throws(MailboxSealError) -> [UInt8] {
        guard !messageID.isEmpty else { throw MailboxSealError(.sealFailed, "a message id is not empty") }
        let info = try info(subject: subject)
        do {
            var sender = try HPKE.Sender(recipientKey: recipient, ciphersuite: ciphersuite, info: Data(info))
            let ciphertext = try sender.seal(plaintext, authenticating: Data(messageID.utf8))
            var body: [UInt8] = [version]
            body.reserveCapacity(1 + 32 + ciphertext.count)
            body.append(contentsOf: sender.encapsulatedKey)
            body.append(contentsOf: ciphertext)
            return body
        } catch {
            throw MailboxSealError(.sealFailed, "HPKE sealing failed")
        }
    }

    /// Opens a body that arrived on `subject` with `Nats-Msg-Id` `messageID`, with the device's mailbox key.
    ///
    /// - Throws: ``MailboxSealError`` `malformedBody`, `unsupportedVersion`, `openFailed`.
    public static func open(
        _ body: some Collection<UInt8>,
        subject: String,
        messageID: String,
        privateKey: Curve25519.KeyAgreement.PrivateKey
    ) throws(MailboxSealError) -> [UInt8] {
        guard let first = body.first else { throw MailboxSealError(.malformedBody, "the body is empty") }
        guard first == version else {
            throw MailboxSealError(.unsupportedVersion, "mailbox body version \(first) is not 1")
        }
        guard body.count >= overhead else {
            throw MailboxSealError(.malformedBody, "a mailbox body is at least \(overhead) bytes")
        }
        let bytes = Array(body)
        let info: [UInt8]
        do { info = try self.info(subject: subject) } catch { throw MailboxSealError(.openFailed, error.message) }
        do {
            var recipient = try HPKE.Recipient(
                privateKey: privateKey, ciphersuite: ciphersuite, info: Data(info),
                encapsulatedKey: Data(bytes[1..<33]))
            return Array(try recipient.open(Data(bytes[33...]), authenticating: Data(messageID.utf8)))
        } catch {
            throw MailboxSealError(.openFailed, "the message does not open with this key, subject and id")
        }
    }
}
