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
    /// swift-crypto's BoringSSL backend does not check it, so the KEM refuses those keys before the agreement: the
    /// u-coordinates X25519 maps to zero for every scalar (small order on the curve or its twist), compared with bit
    /// 255 cleared as X25519 ignores it. The list (libsodium's) is complete: 0, 1, the two points of order 8, p − 1,
    /// and the non-canonical p and p + 1; `SessionKEMTests` checks each against swift-crypto.
    static func refuseSmallOrder(_ key: [UInt8]) throws(SessionError) {
        guard isSmallOrder(key) else { return }
        throw SessionError(.keyAgreementFailed, "the X25519 key is of small order")
    }

    /// Whether `key` (32 bytes) is one of ``smallOrderPoints``, in time independent of which.
    static func isSmallOrder(_ key: [UInt8]) -> Bool {
        guard key.count == 32 else { return false }
        var matches: UInt8 = 0
        for point in smallOrderPoints {
            var difference: UInt8 = 0
            for index in 0..<31 { difference |= key[index] ^ point[index] }
            difference |= (key[31] & 0x7F) ^ point[31]
            matches |= difference == 0 ? 1 : 0
        }
        return matches != 0
    }

    /// The small-order u-coordinates, little-endian, bit 255 clear.
    static let smallOrderPoints: [[UInt8]] = [
        [UInt8](repeating: 0, count: 32),
        [1] + [UInt8](repeating: 0, count: 31),
        [
            0xE0, 0xEB, 0x7A, 0x7C, 0x3B, 0x41, 0xB8, 0xAE, 0x16, 0x56, 0xE3, 0xFA, 0xF1, 0x9F, 0xC4, 0x6A,
            0xDA, 0x09, 0x8D, 0xEB, 0x9C, 0x32, 0xB1, 0xFD, 0x86, 0x62, 0x05, 0x16, 0x5F, 0x49, 0xB8, 0x00,
        ],
        [
            0x5F, 0x9C, 0x95, 0xBC, 0xA3, 0x50, 0x8C, 0x24, 0xB1, 0xD0, 0xB1, 0x55, 0x9C, 0x83, 0xEF, 0x5B,
            0x04, 0x44, 0x5C, 0xC4, 0x58, 0x1C, 0x8E, 0x86, 0xD8, 0x22, 0x4E, 0xDD, 0xD0, 0x9F, 0x11, 0x57,
        ],
        [0xEC] + [UInt8](repeating: 0xFF, count: 30) + [0x7F],
        [0xED] + [UInt8](repeating: 0xFF, count: 30) + [0x7F],
        [0xEE] + [UInt8](repeating: 0xFF, count: 30) + [0x7F],
    ]

    private static let x25519Ciphersuite = HPKE.Ciphersuite(
        kem: .Curve25519_HKDF_SHA256, kdf: .HKDF_SHA256, aead: .chaChaPoly)

    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
    private static var xWingCiphersuite: HPKE.Ciphersuite {
        HPKE.Ciphersuite(kem: .XWingMLKEM768X25519, kdf: .HKDF_SHA256, aead: .chaChaPoly)
    }
}
