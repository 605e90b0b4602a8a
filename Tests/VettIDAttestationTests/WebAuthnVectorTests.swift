// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
import VettIDAttestation

/// The passkey test vector of docs/protocol.md §2.1: the client data a software authenticator writes, its hash, and
/// the authenticator data of an assertion.
@Suite struct WebAuthnVectorTests {
    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test func clientDataAndAuthenticatorDataOfTheDocumentedAssertion() throws {
        let clientData = CollectedClientData(
            type: .get, challenge: Array(0..<32), origin: "https://vettid.example")
        #expect(
            String(decoding: clientData.json, as: UTF8.self)
                == #"{"type":"webauthn.get","challenge":"AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8","#
                + #""origin":"https://vettid.example","crossOrigin":false}"#)
        #expect(Self.hex(clientData.hash) == "da8dfd53ca7ddb1055ec67c9149dd92bf1adf5c845f9b0cad5c2873b975432db")
        let parsed = try CollectedClientData(json: clientData.json)
        #expect(parsed.challenge == Array(0..<32) && parsed.origin == "https://vettid.example" && !parsed.crossOrigin)

        let authenticatorData = WebAuthnAuthenticatorData.encode(
            rpID: "vettid.example", flags: .userPresent, signCount: 1)
        #expect(
            Self.hex(authenticatorData)
                == "6a34b96481ab0ac3ffa399d4ed0ad724ad87d15561e3e570798d0ea5aae416fe0100000001")
        let read = try WebAuthnAuthenticatorData(bytes: authenticatorData)
        #expect(read.flags == .userPresent && read.signCount == 1 && read.attestedCredential == nil)
    }
}
