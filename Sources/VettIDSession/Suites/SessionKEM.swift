// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import VettIDCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// HPKE (RFC 9180) base mode with each suite's KEM, used only for its exporter: the session secret.

/// The HPKE half of the key schedule: `SetupBaseS` on the vault, `SetupBaseR` on the app, then
/// `Export("VettID session v1 secret", 32)`.
enum SessionKEM {
    /// The exporter context of the session secret.
    static let exportContext = SessionLabels.exportedSecret
    /// The length of the exported secret.
    static let secretLength = 32

    /// Vault side: encapsulates to the offered ephemeral key and exports the secret.
    static func encapsulate(
        suite: SessionSuite, to publicKey: [UInt8], info: [UInt8]
    ) throws(SessionError) -> (enc: [UInt8], secret: [UInt8]) {
        do {
            let sender: HPKE.Sender
            switch suite {
            case .x25519:
                let key = try Curve25519.KeyAgreement.PublicKey(rawRepresentation: publicKey)
                try refuseSmallOrder(key, probe: Curve25519.KeyAgreement.PrivateKey())
                sender = try HPKE.Sender(recipientKey: key, ciphersuite: x25519Ciphersuite, info: Data(info))
            case .xWing:
                guard #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) else {
                    throw SessionError(.noCommonSuite, "X-Wing is not available on this platform")
                }
                let key = try XWingMLKEM768X25519.PublicKey(rawRepresentation: publicKey)
                sender = try HPKE.Sender(recipientKey: key, ciphersuite: xWingCiphersuite, info: Data(info))
            default:
                throw SessionError(.noCommonSuite, "suite \(suite) is not known")
            }
            let secret = try sender.exportSecret(context: exportContext, outputByteCount: secretLength)
            return (Array(sender.encapsulatedKey), secret.withUnsafeBytes { Array($0) })
        } catch let error as SessionError {
            throw error
        } catch {
            throw SessionError(.keyAgreementFailed, "HPKE encapsulation to the offered \(suite) key failed")
        }
    }

    /// App side: the public key of an ephemeral private key given by its 32-byte seed.
    static func publicKey(suite: SessionSuite, seed: [UInt8]) throws(SessionError) -> [UInt8] {
        do {
            switch suite {
            case .x25519:
                return Array(
                    try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: seed).publicKey.rawRepresentation)
            case .xWing:
                guard #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) else {
                    throw SessionError(.noCommonSuite, "X-Wing is not available on this platform")
                }
                let key = try XWingMLKEM768X25519.PrivateKey(seedRepresentation: seed, publicKey: nil)
                return Array(key.publicKey.rawRepresentation)
            default:
                throw SessionError(.noCommonSuite, "suite \(suite) is not known")
            }
        } catch let error as SessionError {
            throw error
        } catch {
            throw SessionError(.handshakeFailed, "an ephemeral \(suite) key needs a 32-byte seed")
        }
    }

    /// App side: decapsulates `enc` with the ephemeral private key and exports the secret.
    static func decapsulate(
        suite: SessionSuite, seed: [UInt8], enc: [UInt8], info: [UInt8]
    ) throws(SessionError) -> [UInt8] {
        do {
            let recipient: HPKE.Recipient
            switch suite {
            case .x25519:
                let key = try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: seed)
                try refuseSmallOrder(Curve25519.KeyAgreement.PublicKey(rawRepresentation: enc), probe: key)
                recipient = try HPKE.Recipient(
                    privateKey: key, ciphersuite: x25519Ciphersuite, info: Data(info), encapsulatedKey: Data(enc))
            case .xWing:
                guard #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) else {
                    throw SessionError(.noCommonSuite, "X-Wing is not available on this platform")
                }
                let key = try XWingMLKEM768X25519.PrivateKey(seedRepresentation: seed, publicKey: nil)
                recipient = try HPKE.Recipient(
                    privateKey: key, ciphersuite: xWingCiphersuite, info: Data(info), encapsulatedKey: Data(enc))
            default:
                throw SessionError(.noCommonSuite, "suite \(suite) is not known")
            }
            let secret = try recipient.exportSecret(context: exportContext, outputByteCount: secretLength)
            return secret.withUnsafeBytes { Array($0) }
        } catch let error as SessionError {
            throw error
        } catch {
            throw SessionError(.keyAgreementFailed, "HPKE decapsulation of the \(suite) enc failed")
        }
    }

    /// RFC 9180 §7.1.4 requires aborting when the X25519 shared secret is all zeros (a small-order public key);
    /// swift-crypto's BoringSSL backend does not check it, so the KEM does. Every clamped scalar maps a small-order
    /// point to zero, so any private key (`probe`) reveals one.
    private static func refuseSmallOrder(
        _ key: Curve25519.KeyAgreement.PublicKey, probe: Curve25519.KeyAgreement.PrivateKey
    ) throws(SessionError) {
        guard let shared = try? probe.sharedSecretFromKeyAgreement(with: key),
            shared.withUnsafeBytes({ $0.contains { $0 != 0 } })
        else { throw SessionError(.keyAgreementFailed, "the X25519 key is of small order") }
    }

    private static let x25519Ciphersuite = HPKE.Ciphersuite(
        kem: .Curve25519_HKDF_SHA256, kdf: .HKDF_SHA256, aead: .chaChaPoly)

    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
    private static var xWingCiphersuite: HPKE.Ciphersuite {
        HPKE.Ciphersuite(kem: .XWingMLKEM768X25519, kdf: .HKDF_SHA256, aead: .chaChaPoly)
    }
}
