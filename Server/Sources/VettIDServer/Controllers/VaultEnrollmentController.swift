// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import OpenAPIRuntime
import VettIDAPI
import VettIDCore
import VettIDCrypto
import VettIDVerification

/// Vault enrollment (docs/protocol.md §4): `start` is proven by a DPoP proof alone and binds the session to its
/// key; the other steps take the enrollment token with the DPoP scheme and a proof by that key.
struct VaultEnrollmentController: Sendable {
    let enrollment: EnrollmentService
    let devices: DeviceTokenAuthenticator
    let dpop: DPoPGuard
    let sessionKeys: VaultSessionKeySetSource

    func enrollStart(_ input: Operations.EnrollStart.Input) async throws -> Operations.EnrollStart.Output {
        guard case .json(let body) = input.body else { throw APIFailure.invalidRequest("expected a JSON body") }
        let info = try RequestInfo.required
        let proof = try await dpop.verify(info, endpoint: .token)
        let started = try await enrollment.start(
            invitationCode: body.invitationCode, deviceType: body.deviceType.rawValue, deviceID: body.deviceId,
            deviceJKT: proof.thumbprint, clientIP: info.clientIP, logger: info.logger)
        let session = started.session
        let next = EnrollmentStateMachine.nextStep(
            after: session.state, attestationRequired: session.attestationRequired)
        info.responseHeaders.append(.cacheControl, "no-store")
        return .created(
            .init(
                body: .json(
                    .init(
                        enrollmentSessionId: session.id, enrollmentToken: started.token, tokenType: "DPoP",
                        expiresAt: UnixSeconds.date(session.expiresAt), userGuid: session.userID.key,
                        transactionKeys: started.transactionKeys.map(\.api), passwordKeyId: session.passwordKeyID,
                        nextStep: next.api, attestationRequired: session.attestationRequired,
                        attestationChallenge: session.attestationChallenge))))
    }

    func enrollAttestation(_ input: Operations.EnrollAttestation.Input) async throws
        -> Operations.EnrollAttestation.Output
    {
        guard case .json(let body) = input.body else { throw APIFailure.invalidRequest("expected a JSON body") }
        let info = try RequestInfo.required
        let session = try await enrollment.session(
            body.enrollmentSessionId, token: try await devices.authenticate(.enrollment, info))
        guard let format = DeviceAttestationFormatName(rawValue: body.format.rawValue) else {
            throw APIFailure.invalidRequest("format is not a known attestation format")
        }
        let attested = try await enrollment.attest(
            session, format: format, keyID: body.keyId, attestationObject: body.attestationObject,
            developmentToken: body.developmentToken, logger: info.logger)
        return .ok(
            .init(
                body: .json(
                    .init(
                        status: .attestationVerified,
                        deviceType: Components.Schemas.DeviceType(rawValue: attested.deviceType) ?? .cli,
                        securityLevel: Components.Schemas.SecurityLevel(rawValue: attested.securityLevel)
                            ?? .development,
                        nextStep: .password))))
    }

    func enrollPassword(_ input: Operations.EnrollPassword.Input) async throws -> Operations.EnrollPassword.Output {
        guard case .json(let body) = input.body else { throw APIFailure.invalidRequest("expected a JSON body") }
        let info = try RequestInfo.required
        let session = try await enrollment.session(
            body.enrollmentSessionId, token: try await devices.authenticate(.enrollment, info))
        try await enrollment.setPassword(session, encrypted: body.encryptedPassword.payload, logger: info.logger)
        return .ok(.init(body: .json(.init(status: .passwordSet, nextStep: .finalize))))
    }

    func enrollFinalize(_ input: Operations.EnrollFinalize.Input) async throws -> Operations.EnrollFinalize.Output {
        guard case .json(let body) = input.body else { throw APIFailure.invalidRequest("expected a JSON body") }
        let info = try RequestInfo.required
        let session = try await enrollment.session(
            body.enrollmentSessionId, token: try await devices.authenticate(.enrollment, info))
        let package = try await enrollment.finalize(session, origin: info.securityOrigin, logger: info.logger)
        info.responseHeaders.append(.cacheControl, "no-store")
        return .ok(
            .init(
                body: .json(
                    .init(
                        status: .enrolled, credentialPackage: package.api, vaultStatus: .enrolled,
                        vaultSessionKeys: sessionKeys.keySet()))))
    }
}

extension TransactionPublicKey {
    var api: Components.Schemas.TransactionKey { .init(keyId: keyID, publicKey: publicKey, algorithm: .x25519) }
}

extension Optional where Wrapped == EnrollmentStep {
    var api: Components.Schemas.EnrollNextStep {
        switch self {
        case .attestation: .attestation
        case .password: .password
        case .finalize: .finalize
        case nil: .complete
        }
    }
}

extension CredentialPackage {
    var api: Components.Schemas.CredentialPackage {
        .init(
            userGuid: userGUID, credentialId: credentialID, sealedCredential: sealedCredential,
            keyVersion: Int(keyVersion),
            ledgerAuthToken: lat.api, transactionKeys: transactionKeys.map(\.api))
    }
}

extension LedgerAuthToken {
    var api: Components.Schemas.LedgerAuthToken { .init(latId: latID, token: token, version: version) }
}

extension Components.Schemas.EncryptedPayload {
    var payload: EncryptedPayload { EncryptedPayload(keyID: keyId, enc: enc, ciphertext: ciphertext) }
}
