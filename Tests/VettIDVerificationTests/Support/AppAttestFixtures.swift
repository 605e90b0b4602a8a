// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import VettIDTestSupport

/// One App Attest fixture of `../shared/fixtures/appattest` (read through `TestFixtures`).
struct AppAttestFixture: Decodable {
    struct Expected: Decodable {
        let nonce_hex: String
        let public_key_x962_uncompressed_hex: String
        let receipt_sha256_hex: String
        let client_data_hash_hex: String
    }
    struct Challenge: Decodable {
        let bytes_hex: String
    }
    struct Assertion: Decodable {
        let assertion_base64: String
        let public_key_pem: String
        let public_key_is_attested_key: Bool
        let client_data_utf8: String
        let previous_counter: UInt32
        let expected_counter: UInt32
    }
    let app_id: String
    let environment: String
    let attestation_object_base64: String
    let key_id_base64: String
    let challenge: Challenge
    let client_data_hash_kind: String
    let validation_time: String
    let expected: Expected
    let assertion: Assertion?

    static let names = ["node-app-attest-development", "go-app-attest-dev", "appattest-checker-node"]

    static func load(_ name: String) throws -> AppAttestFixture {
        try TestFixtures.decode(AppAttestFixture.self, from: "appattest/\(name).json")
    }

    var attestationObject: [UInt8] { Array(Data(base64Encoded: attestation_object_base64) ?? Data()) }
    var keyID: [UInt8] { Array(Data(base64Encoded: key_id_base64) ?? Data()) }
    var validationTime: Date { (try? Date(validation_time, strategy: .iso8601)) ?? .distantPast }
    var challengeBytes: [UInt8] { hex(challenge.bytes_hex) }
}

func hex(_ text: String) -> [UInt8] {
    var bytes = [UInt8]()
    var index = text.startIndex
    while index < text.endIndex, let next = text.index(index, offsetBy: 2, limitedBy: text.endIndex) {
        bytes.append(UInt8(text[index..<next], radix: 16) ?? 0)
        index = next
    }
    return bytes
}
