// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import VettIDCore
import VettIDCrypto

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
                try refuseSmallOrder(publicKey)
                let key = try Curve25519.KeyAgreement.PublicKey(rawRepresentation: publicKey)
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

    /// App side: an ephemeral private key, expanded once from its 32-byte seed (X-Wing's ML-KEM key expansion is
    /// the costly part of its key pair).
    enum PrivateKey: Sendable {
        case x25519(Curve25519.KeyAgreement.PrivateKey)
        /// An `XWingMLKEM768X25519.PrivateKey`, typed as `Sendable` because that type exists only on newer
        /// Apple platforms.
        case xWing(any Sendable)
    }

    /// App side: the private key of `suite` whose seed is `seed`, and its public key.
    static func privateKey(suite: SessionSuite, seed: [UInt8]) throws(SessionError) -> (PrivateKey, [UInt8]) {
        do {
            switch suite {
            case .x25519:
                let key = try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: seed)
                return (.x25519(key), Array(key.publicKey.rawRepresentation))
            case .xWing:
                guard #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) else {
                    throw SessionError(.noCommonSuite, "X-Wing is not available on this platform")
                }
                let key = try XWingMLKEM768X25519.PrivateKey(seedRepresentation: seed, publicKey: nil)
                return (.xWing(key), Array(key.publicKey.rawRepresentation))
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
        _ privateKey: PrivateKey, enc: [UInt8], info: [UInt8]
    ) throws(SessionError) -> [UInt8] {
        do {
            let recipient: HPKE.Recipient
            switch privateKey {
            case .x25519(let key):
                try refuseSmallOrder(enc)
                recipient = try HPKE.Recipient(
                    privateKey: key, ciphersuite: x25519Ciphersuite, info: Data(info), encapsulatedKey: Data(enc))
            case .xWing(let any):
                guard #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *),
                    let key = any as? XWingMLKEM768X25519.PrivateKey
                else {
                    throw SessionError(.noCommonSuite, "X-Wing is not available on this platform")
                }
                recipient = try HPKE.Recipient(
                    privateKey: key, ciphersuite: xWingCiphersuite, info: Data(info), encapsulatedKey: Data(enc))
            }
            let secret = try recipient.exportSecret(context: exportContext, outputByteCount: secretLength)
            return secret.withUnsafeBytes { Array($0) }
        } catch let error as SessionError {
            throw error
        } catch {
            throw SessionError(.keyAgreementFailed, "HPKE decapsulation of the enc failed")
        }
    }

    /// RFC 9180 §7.1.4 requires aborting when the X25519 shared secret is all zeros (a small-order public key);
    /// swift-crypto's BoringSSL backend does not check it, so the KEM refuses those keys before the agreement
    /// (`X25519SmallOrder` in VettIDCrypto; `SessionKEMTests` checks each against swift-crypto).
    static func refuseSmallOrder(_ key: [UInt8]) throws(SessionError) {
        guard X25519SmallOrder.contains(key) else { return }
        throw SessionError(.keyAgreementFailed, "the X25519 key is of small order")
    }

    private static let x25519Ciphersuite = HPKE.Ciphersuite(
        kem: .Curve25519_HKDF_SHA256, kdf: .HKDF_SHA256, aead: .chaChaPoly)

    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
    private static var xWingCiphersuite: HPKE.Ciphersuite {
        HPKE.Ciphersuite(kem: .XWingMLKEM768X25519, kdf: .HKDF_SHA256, aead: .chaChaPoly)
    }
}
