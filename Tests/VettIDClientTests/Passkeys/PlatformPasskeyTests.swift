// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
import VettIDAttestation
import VettIDCore

@testable import VettIDClient

// The decisions of PlatformPasskeyAuthenticator (Apple-only, type-checked by scripts/check-apple-only), tested here.

/// A stand-in for an `ASAuthorizationError` as the delegate receives it.
private struct SomeSystemError: Error {}

@Suite("Platform passkeys: ASAuthorizationError codes")
struct PasskeyAuthorizationFailureTests {
    @Test(
        "each ASAuthorizationError.Code raw value maps to its PasskeyError code",
        arguments: [
            (1000, PasskeyError.Code.failed),  // unknown
            (1001, .cancelled),  // canceled
            (1002, .failed),  // invalidResponse
            (1003, .notSupported),  // notHandled
            (1004, .failed),  // failed (options, associated domains)
            (1005, .noCredential),  // notInteractive
            (1006, .failed),  // matchedExcludedCredential
            (1007, .failed),  // credentialImport
            (1008, .failed),  // credentialExport
            (1009, .failed),  // preferSignInWithApple
            (1010, .notSupported),  // deviceNotConfiguredForPasskeyCreation
            (4242, .failed),  // a code added later
        ])
    func codes(raw: Int, expected: PasskeyError.Code) {
        #expect(PasskeyAuthorizationFailure.code(forAuthorizationErrorCode: raw) == expected)
        let error = PasskeyAuthorizationFailure.error(authorizationErrorCode: raw, description: "why")
        #expect(error.code == expected)
    }

    @Test("the system's description is kept in the message, and the error as underlying")
    func message() throws {
        let failed = PasskeyAuthorizationFailure.error(
            authorizationErrorCode: 1004, description: "Application not associated with domain",
            underlying: SomeSystemError())
        #expect(failed.message.contains("Application not associated with domain"))
        #expect(failed.message.contains("associated domains"))
        #expect(failed.underlying is SomeSystemError)
        let cancelled = PasskeyAuthorizationFailure.error(authorizationErrorCode: 1001, description: "x")
        #expect(cancelled.message == "the passkey request was cancelled")
        #expect(cancelled.underlying == nil)
    }

    @Test("an error that is not an ASAuthorizationError is failed, with its description")
    func foreignError() {
        let error = PasskeyAuthorizationFailure.error(authorizationErrorCode: nil, description: "disk on fire")
        #expect(error.code == .failed)
        #expect(error.message.contains("disk on fire"))
    }
}

@Suite("Platform passkeys: credentials into responses")
struct PasskeyAuthorizationOutcomeTests {
    let id = Data([1, 2, 3])
    let clientData = Data(#"{"type":"webauthn.create"}"#.utf8)

    @Test("a registration credential becomes the registration response, with the platform's transports")
    func registration() throws {
        let outcome = try PasskeyAuthorizationOutcome.registration(
            credentialID: id, rawClientDataJSON: clientData, rawAttestationObject: Data([0xA3, 0x01]))
        let response = try outcome.registrationResponse()
        #expect(response.credentialID == [1, 2, 3])
        #expect(response.clientDataJSON == Array(clientData))
        #expect(response.attestationObject == [0xA3, 0x01])
        #expect(response.transports == ["internal", "hybrid"])
        #expect(throws: PasskeyError.self) { try outcome.assertionResponse() }
    }

    @Test(
        "a registration without its (optional) attestation object, id or client data is failed, not a crash",
        arguments: [
            (Data([1]), Data([2]), nil as Data?),
            (Data([1]), Data([2]), Data()),
            (Data(), Data([2]), Data([3])),
            (Data([1]), Data(), Data([3])),
        ])
    func registrationMissing(credentialID: Data, clientData: Data, attestationObject: Data?) {
        do {
            _ = try PasskeyAuthorizationOutcome.registration(
                credentialID: credentialID, rawClientDataJSON: clientData, rawAttestationObject: attestationObject)
            Issue.record("an incomplete registration was accepted")
        } catch {
            #expect(error.code == .failed)
        }
    }

    @Test("an assertion credential becomes the assertion response; an empty user id is no user handle")
    func assertion() throws {
        let outcome = try PasskeyAuthorizationOutcome.assertion(
            credentialID: id, rawClientDataJSON: clientData, rawAuthenticatorData: Data([9, 9]),
            signature: Data([0x30, 0x44]), userID: Data([7]))
        let response = try outcome.assertionResponse()
        #expect(response.credentialID == [1, 2, 3])
        #expect(response.authenticatorData == [9, 9])
        #expect(response.signature == [0x30, 0x44])
        #expect(response.userHandle == [7])
        #expect(throws: PasskeyError.self) { try outcome.registrationResponse() }

        let anonymous = try PasskeyAuthorizationOutcome.assertion(
            credentialID: id, rawClientDataJSON: clientData, rawAuthenticatorData: Data([9]), signature: Data([1]),
            userID: Data())
        #expect(try anonymous.assertionResponse().userHandle == nil)
        let none = try PasskeyAuthorizationOutcome.assertion(
            credentialID: id, rawClientDataJSON: clientData, rawAuthenticatorData: Data([9]), signature: Data([1]),
            userID: nil)
        #expect(try none.assertionResponse().userHandle == nil)
    }

    @Test("an assertion without authenticator data or signature (implicitly unwrapped, so possibly nil) is failed")
    func assertionMissing() {
        #expect(throws: PasskeyError(.failed, "the passkey answer has no authenticator data")) {
            try PasskeyAuthorizationOutcome.assertion(
                credentialID: id, rawClientDataJSON: clientData, rawAuthenticatorData: nil, signature: Data([1]),
                userID: nil)
        }
        #expect(throws: PasskeyError(.failed, "the passkey answer has no signature")) {
            try PasskeyAuthorizationOutcome.assertion(
                credentialID: id, rawClientDataJSON: clientData, rawAuthenticatorData: Data([1]), signature: nil,
                userID: nil)
        }
    }

    @Test("a credential of another kind is failed and names its type")
    func unexpected() {
        let error = PasskeyAuthorizationOutcome.unexpectedCredential("ASPasswordCredential")
        #expect(error.code == .failed)
        #expect(error.message.contains("ASPasswordCredential"))
    }
}

@Suite("Platform passkeys: request options")
struct PlatformPasskeyOptionsTests {
    func creation(
        algorithms: [COSEAlgorithm] = [.es256], challenge: [UInt8] = [1, 2], userVerification: String = "required"
    ) -> PasskeyCreationRequest {
        PasskeyCreationRequest(
            rpID: "vettid.example", rpName: "VettID", challenge: challenge, userID: [9, 8], userName: "m@example.com",
            userDisplayName: "M", excludedCredentialIDs: [[5]], algorithms: algorithms,
            userVerification: userVerification)
    }

    @Test("a creation passes the relying party, challenge, account name and user handle as Data")
    func creationValues() throws {
        let options = try PlatformPasskeyOptions(creation: creation())
        #expect(options.relyingPartyID == "vettid.example")
        #expect(options.challenge == Data([1, 2]))
        #expect(options.name == "m@example.com")
        #expect(options.userID == Data([9, 8]))
        #expect(options.userVerification == .required)
        #expect(options.allowedCredentialIDs.isEmpty)
    }

    @Test("a creation the platform cannot do is invalid_options before any sheet shows")
    func creationRefused() {
        #expect(throws: PasskeyError.self) { try PlatformPasskeyOptions(creation: creation(algorithms: [])) }
        do {
            _ = try PlatformPasskeyOptions(creation: creation(algorithms: [.rs256]))
            Issue.record("RS256 only was accepted")
        } catch { #expect(error.code == .invalidOptions) }
        do {
            _ = try PlatformPasskeyOptions(creation: creation(challenge: []))
            Issue.record("an empty challenge was accepted")
        } catch { #expect(error.code == .invalidOptions) }
    }

    @Test("a sign-in passes the allowed credentials, empty for a discoverable sign-in")
    func assertion() throws {
        let options = try PlatformPasskeyOptions(
            assertion: PasskeyAssertionRequest(
                rpID: "vettid.example", challenge: [3], allowedCredentialIDs: [[1], [2, 2]],
                userVerification: "discouraged"))
        #expect(options.allowedCredentialIDs == [Data([1]), Data([2, 2])])
        #expect(options.userVerification == .discouraged)
        #expect(options.challenge == Data([3]))
        let discoverable = try PlatformPasskeyOptions(
            assertion: PasskeyAssertionRequest(
                rpID: "vettid.example", challenge: [3], allowedCredentialIDs: [], userVerification: "preferred"))
        #expect(discoverable.allowedCredentialIDs.isEmpty)
        do {
            _ = try PlatformPasskeyOptions(
                assertion: PasskeyAssertionRequest(
                    rpID: "vettid.example", challenge: [], allowedCredentialIDs: [], userVerification: "preferred"))
            Issue.record("an empty challenge was accepted")
        } catch { #expect(error.code == .invalidOptions) }
    }

    @Test(
        "user verification: WebAuthn's three values; anything else is preferred",
        arguments: [
            ("required", PasskeyUserVerification.required), ("preferred", .preferred), ("discouraged", .discouraged),
            ("", .preferred), ("Required", .preferred), ("always", .preferred),
        ])
    func userVerification(option: String, expected: PasskeyUserVerification) {
        #expect(PasskeyUserVerification(option: option) == expected)
    }
}

@MainActor
@Suite("Platform passkeys: one answer per ceremony")
struct PasskeyCeremonyCompletionTests {
    @Test("an answer delivered while starting is returned; a second one is ignored")
    func answerDuringStart() async throws {
        let completion = PasskeyCeremonyCompletion<Int>()
        var started = 0
        let value = try await completion.wait {
            started += 1
            #expect(completion.finish(.success(7)))
            #expect(!completion.finish(.success(8)), "a second callback must not resume again")
            #expect(!completion.finish(.failure(PasskeyError(.failed, "late"))))
        }
        #expect(value == 7)
        #expect(started == 1)
        #expect(completion.isFinished)
    }

    @Test("an answer delivered later, from another task, resumes the waiting caller once")
    func answerLater() async throws {
        let completion = PasskeyCeremonyCompletion<String>()
        let gate = AsyncStream<Void>.makeStream()
        let waiter = Task { @MainActor in
            try await completion.wait { gate.continuation.yield() }
        }
        // The ceremony has started (the caller is suspended in wait) before the delegate answers.
        for await _ in gate.stream { break }
        #expect(!completion.isFinished)
        #expect(completion.finish(.success("credential")))
        #expect(!completion.finish(.success("again")))
        #expect(try await waiter.value == "credential")
    }

    @Test("a failure is thrown as the PasskeyError it was")
    func failure() async {
        let completion = PasskeyCeremonyCompletion<Int>()
        await #expect(throws: PasskeyError(.cancelled, "the passkey request was cancelled")) {
            try await completion.wait {
                completion.finish(.failure(PasskeyError(.cancelled, "the passkey request was cancelled")))
            }
        }
    }

    @Test("an answer that came before anyone waited is returned without starting again")
    func answerBeforeWait() async throws {
        let completion = PasskeyCeremonyCompletion<Int>()
        completion.finish(.success(3))
        var started = false
        let value = try await completion.wait { started = true }
        #expect(value == 3)
        #expect(!started)
    }
}
