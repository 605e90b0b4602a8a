// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import VettIDAPI
import VettIDCore
import VettIDCrypto

// Conversions between the generated wire types and the SDK's vault types, with the checks the SDK makes on
// every answer (DPoP-bound tokens, valid X25519 keys, a password key among the keys, a decodable challenge).
extension VaultService {
    static func requireDPoP(_ tokenType: String, what: String) throws(APIError) {
        guard tokenType.caseInsensitiveCompare("DPoP") == .orderedSame else {
            throw APIError(
                code: .invalidResponse,
                description: "The server issued a '\(tokenType)' \(what) instead of a DPoP-bound one.")
        }
    }

    static func key(from wire: Components.Schemas.TransactionKey) throws(APIError) -> TransactionKey {
        let key = TransactionKey(keyID: wire.keyId, publicKey: wire.publicKey, algorithm: wire.algorithm.rawValue)
        guard key.isValid else {
            throw APIError(
                code: .invalidResponse,
                description: "The server sent a transaction key that is not a 32-byte X25519 key.")
        }
        return key
    }

    static func session(from body: Components.Schemas.EnrollStartResponse) throws(APIError) -> EnrollmentSession {
        try requireDPoP(body.tokenType, what: "enrollment token")
        guard !body.enrollmentToken.isEmpty, !body.enrollmentSessionId.isEmpty else {
            throw APIError(
                code: .invalidResponse, description: "The server sent an empty enrollment session id or token.")
        }
        var keys: [TransactionKey] = []
        for item in body.transactionKeys { keys.append(try Self.key(from: item)) }
        guard keys.contains(where: { $0.keyID == body.passwordKeyId }) else {
            throw APIError(
                code: .invalidResponse, description: "The password key is not among the session's transaction keys.")
        }
        var challenge: [UInt8]?
        if body.attestationRequired {
            guard let text = body.attestationChallenge, let bytes = Base64URL.decode(text), bytes.count >= 16 else {
                throw APIError(
                    code: .invalidResponse,
                    description: "Attestation is required but the challenge is not base64url of at least 16 bytes.")
            }
            challenge = bytes
        }
        return EnrollmentSession(
            id: body.enrollmentSessionId,
            token: body.enrollmentToken,
            expiresAt: body.expiresAt,
            userGUID: body.userGuid,
            transactionKeys: keys,
            passwordKeyID: body.passwordKeyId,
            nextStep: EnrollmentStep(rawValue: body.nextStep.rawValue),
            attestationRequired: body.attestationRequired,
            attestationChallenge: challenge
        )
    }

    static func package(from wire: Components.Schemas.CredentialPackage) throws(APIError) -> CredentialPackage {
        var keys: [TransactionKey] = []
        for item in wire.transactionKeys { keys.append(try Self.key(from: item)) }
        guard !wire.userGuid.isEmpty, !wire.credentialId.isEmpty, !wire.sealedCredential.isEmpty,
            !wire.ledgerAuthToken.token.isEmpty
        else {
            throw APIError(
                code: .invalidResponse, description: "The credential package is missing its ids, blob or LAT.")
        }
        return CredentialPackage(
            userGUID: wire.userGuid,
            credentialID: wire.credentialId,
            sealedCredential: wire.sealedCredential,
            keyVersion: wire.keyVersion,
            ledgerAuthToken: lat(from: wire.ledgerAuthToken),
            transactionKeys: keys
        )
    }

    static func lat(from wire: Components.Schemas.LedgerAuthToken) -> LedgerAuthToken {
        LedgerAuthToken(latID: wire.latId, token: wire.token, version: wire.version)
    }

    func action(from body: Components.Schemas.ActionResponse) throws(APIError) -> VaultAction {
        try Self.requireDPoP(body.tokenType, what: "action token")
        guard !body.actionId.isEmpty, !body.actionToken.isEmpty, body.expiresIn > 0 else {
            throw APIError(code: .invalidResponse, description: "The server issued an empty or expired action.")
        }
        let key = try Self.key(from: body.transactionKey)
        guard key.keyID == body.useKeyId else {
            throw APIError(
                code: .invalidResponse, description: "The action's transaction key is not the one named by use_key_id.")
        }
        return VaultAction(
            id: body.actionId,
            token: body.actionToken,
            expiresAt: configuration.clock.now().addingTimeInterval(TimeInterval(body.expiresIn)),
            ledgerAuthToken: Self.lat(from: body.ledgerAuthToken),
            useKeyID: body.useKeyId,
            transactionKey: key
        )
    }

    static func wire(_ payload: EncryptedPayload) -> Components.Schemas.EncryptedPayload {
        Components.Schemas.EncryptedPayload(keyId: payload.keyID, enc: payload.enc, ciphertext: payload.ciphertext)
    }
}
