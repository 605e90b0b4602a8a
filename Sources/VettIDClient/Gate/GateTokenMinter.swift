// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Logging
import VettIDAPI
import VettIDCore
import VettIDCrypto

/// Mints Gate access tokens: challenge → (first run) attest + register → fresh challenge → assertion → `/token`.
///
/// Every step uses its own single-use challenge (the attestation and the assertion never share one). When the
/// attester reports its key lost (`invalid_key`, `key_not_attested`) or the Gate refuses the assertion
/// (`assertion_invalid`, `invalid_grant`) for a key registered earlier, the key is reset, a new one is attested
/// and registered, and the mint is tried once more.
struct GateTokenMinter: Sendable {
    static let appAttestGrant = Components.Schemas.GateTokenRequest.GrantTypePayload
        .urn_colon_vettid_colon_params_colon_grantType_colon_appAttest
    static let developmentGrant =
        Components.Schemas.GateTokenRequest.GrantTypePayload
        .urn_colon_vettid_colon_params_colon_grantType_colon_development

    let client: Client
    let deviceKeyStore: any DeviceKeyStore
    let attester: any DeviceAttester
    let store: any SecureStore
    let registrationKey: String
    let logger: Logger
    let clock: any WallClock

    /// Mints a token (see the type's documentation).
    func mint() async throws(GateError) -> GateAccessToken {
        let key: DeviceKey
        do throws(DeviceKeyError) { key = try await deviceKeyStore.deviceKey() } catch { throw GateError(error) }
        if attester.format == .development {
            let assertion: DeviceKeyAssertion
            do throws(DeviceAttestationError) {
                assertion = try await attester.generateAssertion(
                    challenge: [], deviceKeyThumbprint: key.thumbprintBytes)
            } catch { throw GateError(error) }
            logger.debug("Gate: exchanging a development token")
            return try await exchange(
                .init(grantType: Self.developmentGrant, developmentToken: assertion.developmentToken))
        }
        var registeredNow = false
        let registered = try await isRegistered(key)
        if !registered {
            try await register(key)
            registeredNow = true
        }
        do throws(GateError) {
            return try await assertAndExchange(key)
        } catch  where !registeredNow && Self.needsNewRegistration(error) {
            logger.notice(
                "Gate: the attested key is no longer accepted; attesting a new one",
                metadata: ["error.code": "\(error.code)"])
            do throws(DeviceAttestationError) { try await attester.resetKey() } catch { throw GateError(error) }
            try await register(key)
            return try await assertAndExchange(key)
        }
    }

    /// Attests a new key for a fresh challenge and registers it with the device key.
    func register(_ key: DeviceKey) async throws(GateError) {
        let challenge = try await challenge(purpose: .attest)
        let attestation: DeviceKeyAttestation
        do throws(DeviceAttestationError) {
            attestation = try await attester.attestKey(
                challenge: challenge.bytes, deviceKeyThumbprint: key.thumbprintBytes)
        } catch { throw GateError(error) }
        guard let keyID = attestation.keyID, let object = attestation.attestationObject else {
            throw GateError(code: .attestation, message: "The attester produced no key id or attestation object.")
        }
        let jwk = Components.Schemas.Jwk(kty: .ec, crv: .p256, x: key.publicJWK.x, y: key.publicJWK.y)
        let request = Components.Schemas.AttestationRegisterRequest(
            keyId: keyID,
            attestationObject: object.base64EncodedString(),
            challenge: challenge.text,
            deviceKeyJwk: jwk
        )
        do {
            // The `DPoP` value is written at send time by DPoPProofMiddleware (newest nonce, exact target URI).
            _ = try await client.registerAttestation(.init(headers: .init(dpop: ""), body: .json(request))).created.body
                .json
        } catch {
            throw GateError.from(error, operation: "registerAttestation")
        }
        let record = GateRegistrationRecord(keyID: keyID, deviceKeyThumbprint: key.thumbprint)
        do {
            try await store.set(try JSONEncoder().encode(record), forKey: registrationKey)
        } catch {
            throw GateError(code: .attestation, message: "The registration could not be stored.", underlying: error)
        }
        logger.debug("Gate: device key registered", metadata: ["format": "\(attester.format)"])
    }

    /// Whether the stored registration matches the attester's key and the current device key.
    func isRegistered(_ key: DeviceKey) async throws(GateError) -> Bool {
        let attestedKeyID: String?
        do throws(DeviceAttestationError) { attestedKeyID = try await attester.attestedKeyID() } catch {
            throw GateError(error)
        }
        guard let attestedKeyID,
            let data = try? await store.data(forKey: registrationKey),
            let record = try? JSONDecoder().decode(GateRegistrationRecord.self, from: data)
        else { return false }
        return record == GateRegistrationRecord(keyID: attestedKeyID, deviceKeyThumbprint: key.thumbprint)
    }

    /// Forgets the registration (the next mint attests and registers again).
    func forgetRegistration() async throws(GateError) {
        do {
            try await store.removeValue(forKey: registrationKey)
        } catch {
            throw GateError(code: .attestation, message: "The registration could not be removed.", underlying: error)
        }
    }

    private func assertAndExchange(_ key: DeviceKey) async throws(GateError) -> GateAccessToken {
        let challenge = try await challenge(purpose: .assert)
        let assertion: DeviceKeyAssertion
        do throws(DeviceAttestationError) {
            assertion = try await attester.generateAssertion(
                challenge: challenge.bytes, deviceKeyThumbprint: key.thumbprintBytes)
        } catch { throw GateError(error) }
        guard let keyID = assertion.keyID, let signed = assertion.assertion else {
            throw GateError(code: .attestation, message: "The attester produced no assertion.")
        }
        logger.debug("Gate: exchanging an assertion for an access token")
        return try await exchange(
            .init(
                grantType: Self.appAttestGrant, keyId: keyID, challenge: challenge.text,
                assertion: signed.base64EncodedString())
        )
    }

    private func exchange(_ request: Components.Schemas.GateTokenRequest) async throws(GateError) -> GateAccessToken {
        let body: Components.Schemas.GateTokenResponse
        do {
            body = try await client.createGateToken(.init(headers: .init(dpop: ""), body: .json(request))).ok.body.json
        } catch {
            throw GateError.from(error, operation: "createGateToken")
        }
        // A token that is not DPoP-bound would be sent with the wrong scheme; refuse it (RFC 9449 §5).
        guard body.tokenType.caseInsensitiveCompare("DPoP") == .orderedSame else {
            throw GateError(
                code: .invalidResponse,
                message: "The Gate issued a '\(body.tokenType)' token instead of a DPoP-bound one.")
        }
        guard !body.accessToken.isEmpty, body.expiresIn > 0 else {
            throw GateError(code: .invalidResponse, message: "The Gate issued an empty or already expired token.")
        }
        return GateAccessToken(
            value: body.accessToken, expiresAt: clock.now().addingTimeInterval(TimeInterval(body.expiresIn)))
    }

    private func challenge(purpose: Components.Schemas.AttestationChallengeRequest.PurposePayload)
        async throws(GateError) -> (text: String, bytes: [UInt8])
    {
        let body: Components.Schemas.AttestationChallenge
        do {
            body = try await client.createAttestationChallenge(.init(body: .json(.init(purpose: purpose)))).created.body
                .json
        } catch {
            throw GateError.from(error, operation: "createAttestationChallenge")
        }
        // The contract is base64url of 32 bytes: no guessing between encodings.
        guard let bytes = Base64URL.decode(body.challenge), bytes.count >= 16 else {
            throw GateError(code: .invalidResponse, message: "The challenge is not base64url of at least 16 bytes.")
        }
        return (body.challenge, bytes)
    }

    static func needsNewRegistration(_ error: GateError) -> Bool {
        if let code = error.attestationCode, code == .invalidKey || code == .keyNotAttested { return true }
        if error.code == .server, let code = error.serverCode, code == .assertionInvalid || code == .invalidGrant {
            return true
        }
        return false
    }
}
