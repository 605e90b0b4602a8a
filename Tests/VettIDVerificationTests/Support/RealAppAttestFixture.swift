// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import VettIDTestSupport

/// One file of `../shared/fixtures/appattest/real`: a real device attestation (with zero or more
/// assertions by the attested key), or a standalone real assertion with the public key its server stored.
struct RealAppAttestFixture: Decodable {
    typealias Expected = AppAttestFixture.Expected
    typealias Challenge = AppAttestFixture.Challenge
    struct Assertion: Decodable {
        let assertion_base64: String
        let client_data_base64: String
        /// Present only when the key is not this fixture's attested key.
        let public_key_pem: String?
        let previous_counter: UInt32
        let expected_counter: UInt32
        let authenticator_data_length: Int

        var object: [UInt8] { Array(Data(base64Encoded: assertion_base64) ?? Data()) }
        var clientData: [UInt8] { Array(Data(base64Encoded: client_data_base64) ?? Data()) }
    }
    let id: String
    let app_id: String
    let kind: String?
    let environment: String?
    let attestation_object_base64: String?
    let key_id_base64: String?
    let challenge: Challenge?
    let client_data_hash_kind: String?
    let validation_time: String?
    let expected: Expected?
    let assertions: [Assertion]

    static let directory = TestFixtures.url("appattest/real")

    /// Every fixture file's name (without `.json`), sorted; empty when the directory is missing, which
    /// ``allNamesArePresent()`` turns into a failure.
    static let names: [String] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }()

    /// The fixtures that hold an attestation.
    static let attestationNames: [String] = names.filter { (try? load($0))?.attestation_object_base64 != nil }

    /// `fixture name / assertion index` for every assertion in the set.
    static let assertionCases: [String] = names.flatMap { name in
        ((try? load(name))?.assertions.indices).map { $0.map { "\(name)#\($0)" } } ?? []
    }

    static func load(_ name: String) throws -> RealAppAttestFixture {
        try TestFixtures.decode(RealAppAttestFixture.self, from: "appattest/real/\(name).json")
    }

    var attestationObject: [UInt8] { Array(Data(base64Encoded: attestation_object_base64 ?? "") ?? Data()) }
    var keyID: [UInt8] { Array(Data(base64Encoded: key_id_base64 ?? "") ?? Data()) }
    var validationTime: Date { (try? Date(validation_time ?? "", strategy: .iso8601)) ?? .distantPast }
    var challengeBytes: [UInt8] { hex(challenge?.bytes_hex ?? "") }
}
