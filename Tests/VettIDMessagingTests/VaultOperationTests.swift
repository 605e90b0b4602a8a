// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
import VettIDCore
import VettIDCrypto
import VettIDMessaging

/// The handler contracts both sides use: their wire forms (docs/protocol.md §7.4), the catalogue entries, the
/// limits, and a refused payload that names the member at fault but never its value.
@Suite struct VaultOperationTests {
    static func json(_ text: String) throws -> JSONValue { try #require(JSONValue.parse(Array(text.utf8))) }

    @Test func aPutRequestIsSnakeCaseWithABase64Value() throws {
        let request = SecretPutRequest(name: "bank-pin", value: Data("2468".utf8), expectedVersion: 0)
        let json = try request.vaultPayload()
        #expect(json["name"] == .string("bank-pin"))
        #expect(json["value"] == .string("MjQ2OA=="))
        #expect(json["expected_version"] == .integer(0))
        #expect(try SecretPutRequest(vaultPayload: json) == request)
        // Without expected_version the member is absent, and reads back as nil.
        let any = try SecretPutRequest(name: "n", value: Data([1])).vaultPayload()
        #expect(any["expected_version"] == nil)
    }

    @Test func resultsReadTheDocumentedForms() throws {
        let value = try SecretValue(
            vaultPayload: Self.json(#"{"name":"a","value":"AQID","version":3,"updated_at":1800000000123}"#))
        #expect(value == SecretValue(name: "a", value: Data([1, 2, 3]), version: 3, updatedAt: 1_800_000_000_123))
        let list = try SecretList(
            vaultPayload: Self.json(
                #"{"secrets":[{"name":"a","version":1,"size":3,"updated_at":5}],"total_bytes":3,"limits":{"max_name_bytes":128,"max_value_bytes":16384,"max_secrets":256,"max_total_bytes":1048576,"max_profile_fields":32,"max_profile_value_bytes":1024}}"#
            ))
        #expect(list.secrets == [SecretSummary(name: "a", version: 1, size: 3, updatedAt: 5)])
        #expect(list.limits == .standard)
        let profile = try VaultProfile(vaultPayload: Self.json(#"{"fields":{"city":"Turin"},"version":2}"#))
        #expect(profile == VaultProfile(fields: ["city": "Turin"], version: 2, updatedAt: nil))
        let update = try ProfileUpdateRequest(vaultPayload: Self.json(#"{"remove":["city"]}"#))
        #expect(update == ProfileUpdateRequest(set: [:], remove: ["city"]))
    }

    @Test func aPayloadOfTheWrongShapeIsInvalidPayloadWithoutItsValue() throws {
        let secret = "do-not-echo-me-0451"
        let missing = #expect(throws: VaultMessageError.self) {
            try SecretPutRequest(vaultPayload: Self.json(#"{"value":"\#(secret)"}"#))
        }
        #expect(missing?.code == .invalidPayload)
        #expect(missing?.message.contains("'name' is missing") == true)
        let wrongType = #expect(throws: VaultMessageError.self) {
            try SecretNameRequest(vaultPayload: Self.json(#"{"name":["\#(secret)"]}"#))
        }
        #expect(wrongType?.code == .invalidPayload)
        #expect(wrongType?.message.contains("'name'") == true)
        for error in [missing, wrongType] {
            #expect(error?.message.contains(secret) == false)
            #expect("\(error.map { $0 as Any } ?? "")".contains(secret) == false)
        }
    }

    @Test func anEmptyRequestIsWrittenAsAnObjectAndReadFromNullOrAnObject() throws {
        #expect(try VaultEmptyPayload().vaultPayload() == .object([]))
        _ = try VaultEmptyPayload(vaultPayload: .null)
        _ = try VaultEmptyPayload(vaultPayload: .object([("extra", .bool(true))]))
        let error = #expect(throws: VaultMessageError.self) { try VaultEmptyPayload(vaultPayload: .string("x")) }
        #expect(error?.code == .invalidPayload)
    }

    @Test func everyDataOperationIsSealedOnlyAndTheCatalogueRoundTrips() throws {
        let operations: [any VaultOperation.Type] = [
            VaultInfoOperation.self, SecretPutOperation.self, SecretGetOperation.self, SecretListOperation.self,
            SecretDeleteOperation.self, ProfileGetOperation.self, ProfileUpdateOperation.self,
        ]
        #expect(operations.allSatisfy { $0.isSealedOnly })
        #expect(!EchoOperation.isSealedOnly)
        let types = ([EchoOperation.self] + operations).map { $0.eventType }
        #expect(Set(types.map(\.handlerID)).count == types.count, "one id per operation")
        let response = VaultResponse.eventTypes(requestID: "r", types: types, timestamp: 1)
        #expect(try VaultResponse.decode(response.encoded()) == response)
        // A catalogue of an earlier vault (id and description only) still reads.
        let old = try VaultResponse.decode(
            Array(
                #"{"request_id":"r","type":"eventTypes","success":true,"event_types":[{"handler_id":"echo","description":"d"}],"timestamp":1}"#
                    .utf8))
        #expect(
            old
                == .eventTypes(
                    requestID: "r", types: [VaultEventType(handlerID: "echo", description: "d")], timestamp: 1))
    }

    @Test(arguments: ["", " lead", "trail ", "tab\there", String(repeating: "n", count: 129), "nul\u{0}"])
    func badSecretNamesAreRefused(name: String) {
        let error = #expect(throws: VaultMessageError.self) { try VaultDataLimits.standard.checkSecretName(name) }
        #expect(error?.code == .invalidSecretName)
    }

    @Test func limitsAcceptTheirBoundsAndRefuseBeyond() throws {
        let limits = VaultDataLimits.standard
        try limits.checkSecretName(String(repeating: "n", count: 128))
        try limits.checkSecretName("Bank PIN / ünïcode ✓")
        try limits.checkSecretValue(byteCount: 16 * 1024)
        #expect(throws: VaultMessageError.self) { try limits.checkSecretValue(byteCount: 16 * 1024 + 1) }
        try limits.checkProfileField(name: "display_name", value: String(repeating: "v", count: 1024))
        for bad in ["", "Display", "1st", "a b", String(repeating: "a", count: 65)] {
            let error = #expect(throws: VaultMessageError.self) { try limits.checkProfileField(name: bad, value: nil) }
            #expect(error?.code == .invalidProfile)
        }
        #expect(throws: VaultMessageError.self) {
            try limits.checkProfileField(name: "bio", value: String(repeating: "v", count: 1025))
        }
    }
}
