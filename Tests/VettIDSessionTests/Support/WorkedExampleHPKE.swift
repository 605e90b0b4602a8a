// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import VettIDSession

/// The HPKE receiver of the worked example written straight on swift-crypto (RFC 9180 `SetupBaseR` + `Export`), so
/// the vectors check the module against an independent path.
enum WorkedExampleHPKE {
    struct UnknownSuite: Error {}

    static func exportSecret(suite: SessionSuite, seed: [UInt8], enc: [UInt8], info: [UInt8]) throws -> [UInt8] {
        let context = Data("VettID session v1 secret".utf8)
        let recipient: HPKE.Recipient
        switch suite {
        case .x25519:
            recipient = try HPKE.Recipient(
                privateKey: Curve25519.KeyAgreement.PrivateKey(rawRepresentation: seed),
                ciphersuite: HPKE.Ciphersuite(kem: .Curve25519_HKDF_SHA256, kdf: .HKDF_SHA256, aead: .chaChaPoly),
                info: Data(info), encapsulatedKey: Data(enc))
        case .xWing:
            guard #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) else { throw UnknownSuite() }
            recipient = try HPKE.Recipient(
                privateKey: XWingMLKEM768X25519.PrivateKey(seedRepresentation: seed, publicKey: nil),
                ciphersuite: HPKE.Ciphersuite(kem: .XWingMLKEM768X25519, kdf: .HKDF_SHA256, aead: .chaChaPoly),
                info: Data(info), encapsulatedKey: Data(enc))
        default:
            throw UnknownSuite()
        }
        return try recipient.exportSecret(context: context, outputByteCount: 32).withUnsafeBytes { Array($0) }
    }
}
