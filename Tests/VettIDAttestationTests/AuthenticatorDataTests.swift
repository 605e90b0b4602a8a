// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Testing
import VettIDCore

@testable import VettIDAttestation

@Suite struct AuthenticatorDataTests {
    let rpIDHash = [UInt8](repeating: 0xAB, count: 32)
    let keyID = [UInt8](repeating: 0x11, count: 32)

    func attested(trailing: [UInt8]) -> [UInt8] {
        rpIDHash + [0x40, 0, 0, 0, 0] + AppAttestEnvironment.production.aaguid + [0, 32] + keyID + trailing
    }

    let ios27Extensions = CBORValue.map([
        CBORMapEntry(key: .text("apple_bundle_version_01"), value: .text("1314")),
        CBORMapEntry(key: .text("apple_validation_category_01"), value: .bytes([3, 0, 0, 0])),
    ]).encoded()

    @Test func parsesAssertionAuthenticatorData() throws {
        let data = try AssertionAuthenticatorData(bytes: rpIDHash + [0x40, 0, 0, 1, 2])
        #expect(data.rpIDHash == rpIDHash)
        #expect(data.flags == 0x40)
        #expect(data.counter == 258)
        #expect(data.extensions.isEmpty)
    }

    @Test func assertionWithAtAndEdFlagsReadsTheExtensionMapNotCredentialData() throws {
        // iOS 27: flags 0xc0 (AT and ED) and the extension map right after the header. Read as attestation
        // data, bytes 53-54 of this map would be a credential-id length far beyond the data.
        let bytes = rpIDHash + [0xC0, 0, 0, 0, 4] + ios27Extensions
        #expect(throws: AppAttestError.self) { try AuthenticatorData(bytes: bytes) }
        let data = try AssertionAuthenticatorData(bytes: bytes)
        #expect(data.flags == 0xC0)
        #expect(data.counter == 4)
        #expect(data.extensions == ios27Extensions)
        // The map without the ED flag (as Apple's own iOS 27 attestation sample sends it) is accepted too.
        #expect(
            try AssertionAuthenticatorData(bytes: rpIDHash + [0x40, 0, 0, 0, 4] + ios27Extensions).extensions
                == ios27Extensions)
    }

    @Test func assertionRefusesWhatIsNotHeaderAndOneMap() {
        func refused(_ bytes: [UInt8]) -> AppAttestError.Code? {
            do throws(AppAttestError) {
                _ = try AssertionAuthenticatorData(bytes: bytes)
                return nil
            } catch { return error.code }
        }
        #expect(refused(Array(rpIDHash.prefix(31)) + [0x40, 0, 0, 0, 1]) == .malformedAuthenticatorData)  // 36 bytes
        #expect(refused(rpIDHash + [0xC0, 0, 0, 0, 1]) == .malformedAuthenticatorData)  // ED without a map
        // truncated map
        #expect(
            refused(rpIDHash + [0xC0, 0, 0, 0, 1] + Array(ios27Extensions.dropLast())) == .malformedAuthenticatorData)
        // bytes after the map
        #expect(refused(rpIDHash + [0xC0, 0, 0, 0, 1] + ios27Extensions + [0x00]) == .malformedAuthenticatorData)
        #expect(
            refused(rpIDHash + [0xC0, 0, 0, 0, 1] + CBORValue.array([.unsigned(1)]).encoded())
                == .malformedAuthenticatorData)  // not a map
        // attested-data shape
        #expect(refused(rpIDHash + [0x40, 0, 0, 0, 1] + [0x00, 0x20] + keyID) == .malformedAuthenticatorData)
    }

    @Test func toleratesTrailingExtensionDataWithoutTheEDFlag() throws {
        // A COSE key followed by the iOS 27 map {apple_bundle_version_01: "1", apple_validation_category_01: h'01000000'}.
        let coseKey = CBORValue.map([CBORMapEntry(key: .unsigned(1), value: .unsigned(2))]).encoded()
        let extensions = CBORValue.map([
            CBORMapEntry(key: .text("apple_bundle_version_01"), value: .text("1")),
            CBORMapEntry(key: .text("apple_validation_category_01"), value: .bytes([1, 0, 0, 0])),
        ]).encoded()
        let data = try AuthenticatorData(bytes: attested(trailing: coseKey + extensions))
        #expect(data.flags == 0x40)
        #expect(data.aaguid == AppAttestEnvironment.production.aaguid)
        #expect(data.credentialID == keyID)
        #expect(data.trailingData == coseKey + extensions)
    }

    @Test func refusesTruncatedData() {
        #expect(throws: AppAttestError.self) { try AuthenticatorData(bytes: Array(rpIDHash.prefix(20))) }
        #expect(throws: AppAttestError.self) { try AuthenticatorData(bytes: rpIDHash + [0x40, 0, 0, 0, 0, 1]) }
        #expect(throws: AppAttestError.self) { try AuthenticatorData(bytes: Array(attested(trailing: []).dropLast())) }
    }

    @Test func cborRoundTripsAndRefusesBadInput() throws {
        let value = CBORValue.map([
            CBORMapEntry(
                key: .text("a"),
                value: .array([.unsigned(0), .unsigned(24), .unsigned(65_536), .negative(6), .bool(true), .null])),
            CBORMapEntry(key: .text("b"), value: .bytes([UInt8](repeating: 7, count: 300))),
        ])
        #expect(try CBORReader.decodeSingle(value.encoded()) == value)
        // length beyond input
        #expect(throws: CBORReader.Failure.self) { try CBORReader.decodeSingle([0x5A, 0xFF, 0xFF, 0xFF, 0xFF]) }
        #expect(throws: CBORReader.Failure.self) { try CBORReader.decodeSingle([0x9F]) }  // indefinite array
        #expect(throws: CBORReader.Failure.self) {
            try CBORReader.decodeSingle([0xA2, 0x61, 0x61, 0x01, 0x61, 0x61, 0x02])
        }  // duplicate key
        #expect(throws: CBORReader.Failure.self) { try CBORReader.decodeSingle([0x01, 0x02]) }  // trailing bytes
        #expect(throws: CBORReader.Failure.self) { try CBORReader.decodeSingle([0x62, 0xC3, 0x28]) }  // invalid UTF-8
        #expect(throws: CBORReader.Failure.self) {
            try CBORReader.decodeSingle(Array(repeating: 0x81, count: 40) + [0x01])
        }  // too deep
    }
}
