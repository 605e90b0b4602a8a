// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Testing
import VettIDAttestation
import VettIDCore
import VettIDCrypto
import VettIDTestSupport
import VettIDVerification

/// WebAuthn Level 3 §7.1, one test per check: a response that is right except for one thing is refused with that
/// check's code.
@Suite("Passkey registration checks (§7.1)")
struct PasskeyRegistrationCheckTests {
    static let rpID = "vettid.example"
    static let origin = "https://vettid.example"
    let party = PasskeyRelyingParty(configuration: .init(rpID: rpID, origins: [origin]))
    let challenge = (0..<32).map { UInt8($0) }

    func refusal(
        _ response: PasskeyRegistrationResponse, party: PasskeyRelyingParty? = nil
    ) -> WebAuthnError.Code? {
        do {
            _ = try (party ?? self.party).verifyRegistration(response, challenge: challenge)
            return nil
        } catch {
            return error.code
        }
    }

    @Test("ES256, EdDSA and RS256 keys register with none attestation", arguments: COSEAlgorithm.allCases)
    func acceptsEachAlgorithm(_ algorithm: COSEAlgorithm) throws {
        let key = try TestPasskey(algorithm)
        let credential = try party.verifyRegistration(
            try key.registration(challenge: challenge, rpID: Self.rpID, origin: Self.origin), challenge: challenge)
        #expect(credential.credentialID == key.credentialID)
        #expect(credential.publicKey == key.publicKey)
        #expect(credential.attestationFormat == "none")
        #expect(credential.userVerified)
        #expect(!credential.backupEligible && !credential.backupState)
    }

    @Test("packed self attestation verifies; a statement signed by another key does not")
    func packedSelfAttestation() throws {
        let key = try TestPasskey()
        let credential = try party.verifyRegistration(
            try key.registration(challenge: challenge, rpID: Self.rpID, origin: Self.origin, format: "packed"),
            challenge: challenge)
        #expect(credential.attestationFormat == "packed")
        // The statement of another key over the same data: the credential key must have signed it.
        let other = try TestPasskey(credentialID: key.credentialID)
        let forged = try other.registration(
            challenge: challenge, rpID: Self.rpID, origin: Self.origin, coseKey: key.publicKey.encoded,
            format: "packed")
        #expect(refusal(forged) == .invalidAttestationStatement)
    }

    @Test("a format other than none and packed self attestation is refused")
    func otherFormats() throws {
        let key = try TestPasskey()
        #expect(
            refusal(try key.registration(challenge: challenge, rpID: Self.rpID, origin: Self.origin, format: "tpm"))
                == .unsupportedAttestationFormat)
    }

    @Test("type webauthn.get is refused")
    func wrongType() throws {
        let key = try TestPasskey()
        let clientData = TestPasskey.clientData(type: "webauthn.get", challenge: challenge, origin: Self.origin)
        #expect(
            refusal(
                try key.registration(
                    challenge: challenge, rpID: Self.rpID, origin: Self.origin, clientDataJSON: clientData))
                == .wrongCeremonyType)
    }

    @Test("another challenge is refused")
    func otherChallenge() throws {
        let key = try TestPasskey()
        #expect(
            refusal(try key.registration(challenge: [1, 2, 3], rpID: Self.rpID, origin: Self.origin))
                == .challengeMismatch)
    }

    @Test(
        "another origin is refused, also one that differs only in scheme or port",
        arguments: [
            "https://evil.example", "http://vettid.example", "https://vettid.example:8443", "https://vettid.example.",
        ])
    func otherOrigin(_ origin: String) throws {
        let key = try TestPasskey()
        #expect(refusal(try key.registration(challenge: challenge, rpID: Self.rpID, origin: origin)) == .originMismatch)
    }

    @Test("a cross-origin frame is refused (crossOrigin true, or a topOrigin)")
    func crossOrigin() throws {
        let key = try TestPasskey()
        for clientData in [
            TestPasskey.clientData(
                type: "webauthn.create", challenge: challenge, origin: Self.origin, crossOrigin: true),
            TestPasskey.clientData(
                type: "webauthn.create", challenge: challenge, origin: Self.origin, topOrigin: "https://evil.example"),
        ] {
            #expect(
                refusal(
                    try key.registration(
                        challenge: challenge, rpID: Self.rpID, origin: Self.origin, clientDataJSON: clientData))
                    == .crossOriginRefused)
        }
    }

    @Test("another relying party id hash is refused")
    func otherRPID() throws {
        let key = try TestPasskey()
        #expect(
            refusal(try key.registration(challenge: challenge, rpID: "evil.example", origin: Self.origin))
                == .rpIDMismatch)
    }

    @Test("user presence is required")
    func userPresence() throws {
        let key = try TestPasskey()
        #expect(
            refusal(
                try key.registration(challenge: challenge, rpID: Self.rpID, origin: Self.origin, flags: [.userVerified])
            )
                == .userNotPresent)
    }

    @Test("user verification is enforced only when required")
    func userVerification() throws {
        let key = try TestPasskey()
        let unverified = try key.registration(
            challenge: challenge, rpID: Self.rpID, origin: Self.origin, flags: [.userPresent])
        #expect(refusal(unverified) == nil)
        let strict = PasskeyRelyingParty(
            configuration: .init(rpID: Self.rpID, origins: [Self.origin], userVerification: .required))
        #expect(refusal(unverified, party: strict) == .userNotVerified)
    }

    @Test("backup state without backup eligibility is refused; both set are kept")
    func backupFlags() throws {
        let key = try TestPasskey()
        #expect(
            refusal(
                try key.registration(
                    challenge: challenge, rpID: Self.rpID, origin: Self.origin, flags: [.userPresent, .backupState]))
                == .backupStateWithoutEligibility)
        let synced = try party.verifyRegistration(
            try key.registration(
                challenge: challenge, rpID: Self.rpID, origin: Self.origin,
                flags: [.userPresent, .backupEligible, .backupState]), challenge: challenge)
        #expect(synced.backupEligible && synced.backupState)
    }

    @Test("an algorithm that was not offered is refused")
    func algorithmNotOffered() throws {
        let onlyES256 = PasskeyRelyingParty(
            configuration: .init(rpID: Self.rpID, origins: [Self.origin], algorithms: [.es256]))
        let key = try TestPasskey(.edDSA)
        #expect(
            refusal(try key.registration(challenge: challenge, rpID: Self.rpID, origin: Self.origin), party: onlyES256)
                == .algorithmNotAllowed)
    }

    @Test("malformed COSE keys are refused")
    func malformedKeys() throws {
        let key = try TestPasskey()
        guard case .p256(let x, let y) = key.publicKey else { Issue.record("not a P-256 key"); return }
        func entry(_ key: Int, _ value: CBORValue) -> CBORMapEntry { .init(key: .init(integer: key), value: value) }
        let malformed: [[UInt8]] = [
            // x is 31 bytes
            CBORValue.map([
                entry(1, .init(integer: 2)), entry(3, .init(integer: -7)), entry(-1, .init(integer: 1)),
                entry(-2, .bytes(Array(x.dropFirst()))), entry(-3, .bytes(y)),
            ]).encoded(),
            // EC2 key type with the EdDSA algorithm
            CBORValue.map([
                entry(1, .init(integer: 2)), entry(3, .init(integer: -8)), entry(-1, .init(integer: 1)),
                entry(-2, .bytes(x)), entry(-3, .bytes(y)),
            ]).encoded(),
            // P-384 curve
            CBORValue.map([
                entry(1, .init(integer: 2)), entry(3, .init(integer: -7)), entry(-1, .init(integer: 2)),
                entry(-2, .bytes(x)), entry(-3, .bytes(y)),
            ]).encoded(),
            // a point that is not on the curve
            COSEKey.p256(x: x, y: x).encoded,
            // no algorithm
            CBORValue.map([entry(1, .init(integer: 2)), entry(-1, .init(integer: 1))]).encoded(),
            // not a map
            CBORValue.array([.bytes(x)]).encoded(),
        ]
        for bytes in malformed {
            let code = refusal(
                try key.registration(challenge: challenge, rpID: Self.rpID, origin: Self.origin, coseKey: bytes))
            #expect(code == .malformedPublicKey || code == .malformedAuthenticatorData)
        }
    }

    @Test("a credential id longer than 1,023 bytes, or not the one the response names, is refused")
    func credentialIDs() throws {
        let long = try TestPasskey(credentialID: [UInt8](repeating: 7, count: 1024))
        #expect(
            refusal(try long.registration(challenge: challenge, rpID: Self.rpID, origin: Self.origin))
                == .invalidCredentialID)
        let longest = try TestPasskey(credentialID: [UInt8](repeating: 7, count: 1023))
        #expect(refusal(try longest.registration(challenge: challenge, rpID: Self.rpID, origin: Self.origin)) == nil)
        let key = try TestPasskey()
        #expect(
            refusal(
                try key.registration(
                    challenge: challenge, rpID: Self.rpID, origin: Self.origin, responseCredentialID: [1, 2, 3]))
                == .invalidCredentialID)
    }

    @Test("authenticator data with trailing bytes, or truncated, is refused")
    func strictAuthenticatorData() throws {
        let key = try TestPasskey()
        #expect(
            refusal(
                try key.registration(
                    challenge: challenge, rpID: Self.rpID, origin: Self.origin, coseKey: key.publicKey.encoded + [0]))
                == .malformedAuthenticatorData)
        #expect(throws: WebAuthnError.self) { try WebAuthnAuthenticatorData(bytes: [UInt8](repeating: 0, count: 36)) }
        var flagsOnly = [UInt8](repeating: 0, count: 37)
        flagsOnly[32] = WebAuthnAuthenticatorData.Flags.attestedCredentialData.rawValue
        #expect(throws: WebAuthnError.self) { try WebAuthnAuthenticatorData(bytes: flagsOnly) }
    }

    @Test("client data naming a member twice is refused, also when one name is escaped")
    func duplicateMembers() throws {
        let key = try TestPasskey()
        let encoded = Base64URL.encode(challenge)
        for second in ["\"origin\"", "\"orig\\u0069n\""] {
            let json =
                "{\"type\":\"webauthn.create\",\"challenge\":\"\(encoded)\",\"origin\":\"https://evil.example\","
                + "\(second):\"\(Self.origin)\"}"
            #expect(
                refusal(
                    try key.registration(
                        challenge: challenge, rpID: Self.rpID, origin: Self.origin, clientDataJSON: Array(json.utf8)))
                    == .malformedClientData, "\(json)")
        }
        // Nested objects and strings holding braces and commas do not confuse the member scan.
        let nested =
            "{\"type\":\"webauthn.create\",\"challenge\":\"\(encoded)\",\"origin\":\"\(Self.origin)\","
            + "\"other\":{\"origin\":\"x,}\",\"a\":[1,{\"b\":\"}\"}]}}"
        #expect(
            refusal(
                try key.registration(
                    challenge: challenge, rpID: Self.rpID, origin: Self.origin, clientDataJSON: Array(nested.utf8)))
                == nil)
    }

    @Test("client data with invalid UTF-8 or a raw control character in a string is refused")
    func clientDataEncoding() throws {
        let key = try TestPasskey()
        let valid = TestPasskey.clientData(type: "webauthn.create", challenge: challenge, origin: Self.origin)
        for forged in [[0xFF, 0xFE], [0x00], [0x1F]] as [[UInt8]] {
            // In a member the relying party does not read: only a strict reading of the whole text refuses it.
            var json = Array(valid.dropLast())
            json += Array(",\"extra\":\"a".utf8) + forged + Array("b\"}".utf8)
            #expect(
                refusal(
                    try key.registration(
                        challenge: challenge, rpID: Self.rpID, origin: Self.origin, clientDataJSON: json))
                    == .malformedClientData)
        }
    }

    @Test("malformed client data is refused")
    func malformedClientData() throws {
        let key = try TestPasskey()
        for json in [
            "not json", "{\"type\":\"webauthn.create\"}", "{\"type\":1,\"challenge\":\"AA\",\"origin\":\"x\"}",
            "{\"type\":\"webauthn.create\",\"challenge\":\"***\",\"origin\":\"https://vettid.example\"}",
        ] {
            #expect(
                refusal(
                    try key.registration(
                        challenge: challenge, rpID: Self.rpID, origin: Self.origin, clientDataJSON: Array(json.utf8)))
                    == .malformedClientData)
        }
    }
}
