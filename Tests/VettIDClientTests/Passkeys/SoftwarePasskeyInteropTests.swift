// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
import VettIDAttestation
import VettIDClient
import VettIDCrypto
import VettIDVerification

/// The SDK's software authenticator against two relying parties: this project's and py_webauthn (an independent
/// implementation, scripts/lib/webauthn_verify.py; scripts/setup-system installs it).
@Suite struct SoftwarePasskeyInteropTests {
    static let rpID = "vettid.example"
    static let origin = "https://vettid.example"

    func creationRequest(challenge: [UInt8]) -> PasskeyCreationRequest {
        PasskeyCreationRequest(
            rpID: Self.rpID, rpName: "VettID", challenge: challenge, userID: Array(repeating: 9, count: 32),
            userName: "member@example.com", userDisplayName: "Member", excludedCredentialIDs: [],
            algorithms: [.es256], userVerification: "preferred")
    }

    static func randomChallenge() -> [UInt8] { (0..<32).map { _ in UInt8.random(in: 0...255) } }

    @Test("registrations and assertions verify with this relying party, and counters increase")
    func verifiesHere() async throws {
        let authenticator = SoftwarePasskeyAuthenticator(store: InMemorySecureStore(), origin: Self.origin)
        let party = PasskeyRelyingParty(configuration: .init(rpID: Self.rpID, origins: [Self.origin]))
        let challenge = Self.randomChallenge()
        let registration = try await authenticator.createPasskey(creationRequest(challenge: challenge))
        let credential = try party.verifyRegistration(registration, challenge: challenge)
        #expect(!credential.userVerified && !credential.backupEligible, "the software authenticator claims only UP")
        var count = credential.signCount
        for _ in 0..<3 {
            let next = Self.randomChallenge()
            let assertion = try await authenticator.assertPasskey(
                .init(rpID: Self.rpID, challenge: next, allowedCredentialIDs: [], userVerification: "preferred"))
            #expect(assertion.userHandle == Array(repeating: 9, count: 32))
            let verified = try party.verifyAssertion(
                assertion, challenge: next, allowedCredentialIDs: [], identifiedUserHandle: nil,
                credential: .init(
                    credentialID: credential.credentialID, publicKey: credential.publicKey, signCount: count,
                    backupEligible: false, ownerUserHandle: Array(repeating: 9, count: 32)))
            #expect(verified.signCount == count + 1)
            count = verified.signCount
        }
        // Another relying party's request finds nothing.
        await #expect(throws: PasskeyError.self) {
            _ = try await authenticator.assertPasskey(
                .init(rpID: "other.example", challenge: [1], allowedCredentialIDs: [], userVerification: "preferred"))
        }
    }

    @Test("py_webauthn verifies the software authenticator's registration and assertions")
    func verifiesWithPyWebAuthn() async throws {
        let authenticator = SoftwarePasskeyAuthenticator(store: InMemorySecureStore(), origin: Self.origin)
        let challenge = Self.randomChallenge()
        let registration = try await authenticator.createPasskey(creationRequest(challenge: challenge))
        let id = Base64URL.encode(registration.credentialID)
        var authentications: [[String: Any]] = []
        for _ in 0..<2 {
            let next = Self.randomChallenge()
            let assertion = try await authenticator.assertPasskey(
                .init(
                    rpID: Self.rpID, challenge: next, allowedCredentialIDs: [registration.credentialID],
                    userVerification: "preferred"))
            authentications.append([
                "challenge": Base64URL.encode(next),
                "credential": [
                    "id": id, "rawId": id, "type": "public-key", "clientExtensionResults": [:] as [String: Any],
                    "response": [
                        "clientDataJSON": Base64URL.encode(assertion.clientDataJSON),
                        "authenticatorData": Base64URL.encode(assertion.authenticatorData),
                        "signature": Base64URL.encode(assertion.signature),
                        "userHandle": Base64URL.encode(assertion.userHandle ?? []),
                    ],
                ] as [String: Any],
            ])
        }
        let request: [String: Any] = [
            "origin": Self.origin,
            "options": [
                "challenge": Base64URL.encode(challenge), "rp": ["id": Self.rpID],
                "pubKeyCredParams": [["type": "public-key", "alg": -7]],
            ] as [String: Any],
            "credential": [
                "id": id, "rawId": id, "type": "public-key", "clientExtensionResults": [:] as [String: Any],
                "response": [
                    "clientDataJSON": Base64URL.encode(registration.clientDataJSON),
                    "attestationObject": Base64URL.encode(registration.attestationObject),
                    "transports": registration.transports,
                ] as [String: Any],
            ] as [String: Any],
            "authentications": authentications,
        ]
        let output = try Self.runVerifier(try JSONSerialization.data(withJSONObject: request))
        let result = try #require(try JSONSerialization.jsonObject(with: output) as? [String: Any])
        #expect(result["credential_id"] as? String == id)
        #expect(result["sign_count"] as? Int == 0)
        #expect(result["sign_counts"] as? [Int] == [1, 2])
    }

    /// Runs scripts/lib/webauthn_verify.py with `input` on standard input; its standard output, or a failure with
    /// its standard error.
    static func runVerifier(_ input: Data) throws -> Data {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let process = Process()
        // The python3 on PATH: the one scripts/setup-system installed py_webauthn for.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", root.appendingPathComponent("scripts/lib/webauthn_verify.py").path]
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(input)
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        let errors = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw VerifierFailure(message: String(decoding: errors, as: UTF8.self))
        }
        return output
    }

    struct VerifierFailure: Error, CustomStringConvertible {
        let message: String
        var description: String { "py_webauthn: \(message)" }
    }
}
