// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import Testing
import VettIDCrypto
import VettIDTestSupport

/// RFC 9180 A.2.1 (base mode, X25519, HKDF-SHA256, ChaCha20-Poly1305) on the recipient side: the suite
/// the transaction-key envelope uses.
@Suite struct HPKEVectorTests {
    struct File: Decodable {
        struct Vector: Decodable {
            struct Encryption: Decodable {
                let aad: String
                let ct: String
                let nonce: String
                let pt: String
            }
            struct Export: Decodable {
                let exporter_context: String
                let L: Int
                let exported_value: String
            }
            let mode: Int
            let kem_id: Int
            let kdf_id: Int
            let aead_id: Int
            let info: String
            let skRm: String
            let pkRm: String
            let enc: String
            let encryptions: [Encryption]
            let exports: [Export]
        }
        let vectors: [Vector]
    }

    static func vector() throws -> File.Vector {
        let file = try TestFixtures.decode(File.self, from: "hpke/rfc9180-x25519-sha256-chacha20poly1305.json")
        return try #require(file.vectors.first { $0.mode == 0 && $0.kem_id == 32 && $0.kdf_id == 1 && $0.aead_id == 3 })
    }

    func recipient(_ vector: File.Vector) throws -> HPKE.Recipient {
        let privateKey = try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: Hex.decode(vector.skRm))
        #expect(Array(privateKey.publicKey.rawRepresentation) == Hex.decode(vector.pkRm))
        return try HPKE.Recipient(
            privateKey: privateKey,
            ciphersuite: TransactionKeyEnvelope.ciphersuite,
            info: Data(Hex.decode(vector.info)),
            encapsulatedKey: Data(Hex.decode(vector.enc))
        )
    }

    @Test func opensAllEncryptionsInOrder() throws {
        let vector = try Self.vector()
        #expect(vector.encryptions.count == 257)
        var recipient = try recipient(vector)
        for encryption in vector.encryptions {
            let plaintext = try recipient.open(Hex.decode(encryption.ct), authenticating: Hex.decode(encryption.aad))
            #expect(Array(plaintext) == Hex.decode(encryption.pt))
        }
    }

    @Test func outOfOrderOpeningFails() throws {
        let vector = try Self.vector()
        var recipient = try recipient(vector)
        let second = vector.encryptions[1]
        #expect(throws: (any Error).self) {
            try recipient.open(Hex.decode(second.ct), authenticating: Hex.decode(second.aad))
        }
    }

    @Test func exportsMatch() throws {
        let vector = try Self.vector()
        #expect(vector.exports.count == 3)
        let recipient = try recipient(vector)
        for export in vector.exports {
            let secret = try recipient.exportSecret(
                context: Hex.decode(export.exporter_context), outputByteCount: export.L)
            #expect(secret.withUnsafeBytes { Array($0) } == Hex.decode(export.exported_value))
        }
    }
}
