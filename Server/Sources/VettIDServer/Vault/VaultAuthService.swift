// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import HTTPTypes
import Logging
import SQLKit
import VettIDAttestation
import VettIDCore
import VettIDCrypto
import VettIDVerification

/// Vault authentication: action request, then auth execute (docs/protocol.md §5).
///
/// The action request is authenticated by the enrolled device key (DPoP) and, for an App Attest credential, an
/// assertion with an increasing counter. It reserves one transaction key and issues a single-use action token.
/// Auth execute consumes the action and the key (each at most once, atomically), opens the sealed credential,
/// verifies the password with Argon2id, and on success rotates the credential key, the blob and the LAT.
public struct VaultAuthService: Sendable {
    /// An issued action.
    struct Issued: Sendable {
        let action: VaultAction
        let token: String
        let lat: LedgerAuthToken
        let transactionKey: TransactionPublicKey
    }

    /// A successful authentication.
    struct Authenticated: Sendable {
        let sessionToken: String
        let package: CredentialPackage
    }

    let configuration: VaultConfiguration
    let store: any SQLStore
    let credentials = VaultCredentialRepository()
    let actions = VaultActionRepository()
    let transactionKeys: TransactionKeyRepository
    let attestedKeys: AttestedKeyRepository
    let attestation: DeviceAttestationVerifier
    let tokens: VaultTokenService
    let hasher: PasswordHasher
    let keyring: CredentialKeyring
    let clock: any WallClock
    let actionLimiter: RateLimiter

    // MARK: Action request

    /// Issues an action for the credential, proven by its device key (and assertion when App Attest-attested).
    func requestAction(
        userGUID: String, credentialID: String, action: String, assertion: String?, clientData: String?,
        proof: VerifiedDPoPProof, logger: Logger
    ) async throws -> Issued {
        if case .limited(let seconds) = actionLimiter.consume("action:" + credentialID) {
            throw APIFailure.rateLimited(retryAfter: seconds)
        }
        let credential = try await store.withDatabase { try await credentials.find(credentialID, on: $0) }
        guard let credential, credential.userID.key == userGUID.lowercased(), credential.revokedAt == nil else {
            throw APIFailure.vault(.notFound, .notFound, "no enrolled credential has this user guid and credential id")
        }
        guard credential.deviceJKT == proof.thumbprint else { throw APIFailure.proofByAnotherKey }
        guard credential.lockedAt == nil else { throw APIFailure.credentialLocked }
        if let attestedKeyID = credential.attestedKeyID {
            try await verifyAssertion(
                assertion, clientData: clientData, action: action, credential: credential, keyID: attestedKeyID,
                logger: logger)
        }
        let now = clock.unixSeconds()
        let expiresAt = now + configuration.actionLifetime.components.seconds
        let actionID = "ac_" + EnrollmentService.randomID()
        let configuration = self.configuration
        let engine = store.engine
        let (action, key) = try await store.transaction { db -> (VaultAction, TransactionPublicKey) in
            try await credentials.lock(credentialID, on: db, engine: engine)
            var key = try await transactionKeys.reserve(
                credentialID: credentialID, for: actionID, until: expiresAt, on: db)
            if key == nil {
                // Every key is used or was offered: top the pool up, then reserve.
                _ = try await transactionKeys.issue(
                    configuration.transactionKeyPoolSize, userID: credential.userID, owner: .credential(credentialID),
                    now: now, on: db)
                key = try await transactionKeys.reserve(
                    credentialID: credentialID, for: actionID, until: expiresAt, on: db)
            }
            guard let key else { throw StoreCorruption(detail: "no transaction key could be reserved") }
            let action = VaultAction(
                id: actionID, credentialID: credentialID, deviceJKT: credential.deviceJKT, keyID: key.keyID,
                expiresAt: expiresAt, usedAt: nil)
            try await actions.insert(action, now: now, on: db)
            return (action, key)
        }
        let token = try await tokens.issue(
            .action, userGUID: credential.userID.key, contextID: actionID, boundJKT: credential.deviceJKT,
            lifetime: configuration.actionLifetime, now: UnixSeconds.date(now))
        return Issued(
            action: action, token: token,
            lat: keyring.lat.lat(
                userGUID: credential.userID.key, credentialID: credentialID, version: credential.keyVersion),
            transactionKey: key)
    }

    private func verifyAssertion(
        _ assertion: String?, clientData: String?, action: String, credential: VaultCredential, keyID: String,
        logger: Logger
    ) async throws {
        let verifier = credential.attestationFormat == "software" ? attestation.software : attestation.apple
        guard let assertion, let clientData,
            let assertionBytes = Data(base64Encoded: assertion).map(Array.init), !assertionBytes.isEmpty
        else {
            throw APIFailure.gate(
                .unauthorized, .assertionInvalid, "this credential needs an App Attest assertion and client_data")
        }
        guard
            let clientBytes = ActionClientData.bytes(
                clientData, action: action, credentialID: credential.credentialID,
                now: clock.unixSeconds())
        else {
            throw APIFailure.gate(
                .unauthorized, .assertionInvalid,
                "client_data is malformed, names another action or credential, or is stale")
        }
        guard let verifier, let key = try await attestedKeys.find(keyID: keyID), key.deviceJKT == credential.deviceJKT,
            let jkt = Base64URL.decode(credential.deviceJKT)
        else {
            throw APIFailure.gate(.unauthorized, .assertionInvalid, "the attested key of this credential is not usable")
        }
        let counter: UInt32
        do throws(AppAttestError) {
            counter = try verifier.verifyAssertion(
                assertionBytes, clientData: clientBytes + jkt, publicKey: key.publicKey, storedCounter: key.counter)
        } catch {
            logger.notice("action assertion refused", metadata: ["attestation_error": .string(error.code.rawValue)])
            if error.code == .counterNotIncreased {
                throw APIFailure.gate(
                    .unauthorized, .assertionCounterReplayed, "the assertion counter did not increase")
            }
            throw APIFailure.gate(
                .unauthorized, .assertionInvalid, "the assertion was refused (\(error.code.rawValue))")
        }
        guard try await attestedKeys.advanceCounter(keyID: keyID, to: counter, now: clock.unixSeconds()) else {
            throw APIFailure.gate(.unauthorized, .assertionCounterReplayed, "the assertion counter did not increase")
        }
    }

    // MARK: Auth execute

    /// Authenticates with the sealed credential and the encrypted password.
    func execute(
        actionID: String, token: VaultTokenService.Verified, credentialID: String, sealedCredential: String,
        keyVersion: Int64, encryptedPassword payload: EncryptedPayload, logger: Logger
    ) async throws -> Authenticated {
        guard token.contextID == actionID else {
            throw APIFailure.invalidDeviceToken("the action token is for another action")
        }
        let now = clock.unixSeconds()
        let consumption = try await store.withDatabase { try await actions.consume(actionID, now: now, on: $0) }
        let action: VaultAction
        switch consumption {
        case .consumed(let consumed): action = consumed
        case .unknown: throw APIFailure.invalidDeviceToken("the action does not exist")
        case .used(let used):
            return try await repeatResult(of: used, token: token, credentialID: credentialID, now: now)
        case .expired: throw APIFailure.vault(.gone, .sessionExpired, "the action expired; request a new one")
        }
        guard action.credentialID == credentialID, action.deviceJKT == token.boundJKT else {
            throw APIFailure.invalidRequest("credential_id is not the credential of this action")
        }
        let found = try await store.withDatabase { try await credentials.find(credentialID, on: $0) }
        guard let credential = found, credential.revokedAt == nil else {
            throw APIFailure.invalidDeviceToken("the credential was retired")
        }
        guard credential.lockedAt == nil else { throw APIFailure.credentialLocked }
        guard keyVersion == credential.keyVersion else {
            throw APIFailure.vault(.conflict, .staleCredential, "the sealed credential is not the current version")
        }
        guard payload.keyID == action.keyID else {
            throw APIFailure.vault(.badRequest, .transactionKeyUnknown, "the password must be encrypted to use_key_id")
        }
        let claim = try await store.withDatabase {
            try await transactionKeys.claim(payload.keyID, owner: .credential(credentialID), now: now, on: $0)
        }
        let passwordBytes = try claim.open(
            payload,
            context: TransactionKeyContext(purpose: .authenticationPassword, contextID: actionID, keyID: payload.keyID))
        guard let contents = try keyring.open(sealedCredential, for: credential) else {
            throw APIFailure.vault(.badRequest, .invalidCredential, "the sealed credential does not open")
        }
        let password = String(decoding: passwordBytes, as: UTF8.self)
        let verdict = try await hasher.verify(password, against: contents.passwordPHC)
        guard verdict.matches else {
            let failures = try await store.withDatabase {
                try await credentials.recordFailure(
                    credentialID, maxAttempts: contents.maxFailedAttempts, now: now, on: $0)
            }
            logger.notice("vault authentication failed", metadata: ["failures": "\(failures)"])
            if failures >= contents.maxFailedAttempts { throw APIFailure.credentialLocked }
            throw APIFailure(
                .unauthorized, .invalidCredentials,
                "wrong password; \(contents.maxFailedAttempts - failures) attempt(s) left before the credential locks")
        }
        return try await rotate(
            credential, contents: contents, password: password, rehash: verdict.needsRehash, actionID: actionID,
            logger: logger)
    }

    /// A repeated auth execute of a used action: the same device, after a lost reply, gets the package that action
    /// issued (and a new session token) while the credential is still at that version and the action token valid;
    /// anything else is 409 `action_replayed`.
    private func repeatResult(
        of action: VaultAction, token: VaultTokenService.Verified, credentialID: String, now: Int64
    )
        async throws -> Authenticated
    {
        let replayed = APIFailure.vault(.conflict, .actionReplayed, "the action was already used")
        guard action.deviceJKT == token.boundJKT, action.credentialID == credentialID, let json = action.result,
            let package = try? JSONDecoder().decode(CredentialPackage.self, from: Data(json.utf8))
        else { throw replayed }
        let credential = try await store.withDatabase { try await credentials.find(credentialID, on: $0) }
        guard let credential, credential.revokedAt == nil, credential.lockedAt == nil,
            credential.keyVersion == package.keyVersion
        else { throw replayed }
        let sessionToken = try await tokens.issue(
            .session, userGUID: credential.userID.key, contextID: credentialID, boundJKT: credential.deviceJKT,
            lifetime: configuration.sessionLifetime, now: UnixSeconds.date(now))
        return Authenticated(sessionToken: sessionToken, package: package)
    }

    /// Seals the next version, swaps it in by compare-and-set, refills the pool and issues the session token.
    private func rotate(
        _ credential: VaultCredential, contents: CredentialContents, password: String, rehash: Bool, actionID: String,
        logger: Logger
    ) async throws -> Authenticated {
        let now = clock.unixSeconds()
        var next = contents
        next.version = credential.keyVersion + 1
        next.updatedAt = now
        if rehash { next.passwordPHC = try await hasher.hash(password) }
        let (sealedKey, sealedCredential) = try keyring.seal(next)
        let nextVersion = next.version
        let configuration = self.configuration
        let engine = store.engine
        let userGUID = credential.userID.key
        let lat = keyring.lat.lat(userGUID: userGUID, credentialID: credential.credentialID, version: nextVersion)
        let package = try await store.transaction { db -> CredentialPackage in
            try await credentials.lock(credential.credentialID, on: db, engine: engine)
            guard
                try await credentials.rotate(
                    credential.credentialID, from: credential.keyVersion, to: nextVersion, sealedKey: sealedKey,
                    now: now,
                    on: db)
            else {
                throw APIFailure.vault(
                    .conflict, .staleCredential, "the credential changed meanwhile; authenticate again")
            }
            _ = try await transactionKeys.refill(
                credentialID: credential.credentialID, userID: credential.userID,
                poolSize: configuration.transactionKeyPoolSize,
                threshold: configuration.transactionKeyRefillThreshold, now: now, on: db)
            let package = CredentialPackage(
                userGUID: userGUID, credentialID: credential.credentialID, sealedCredential: sealedCredential,
                keyVersion: nextVersion, lat: lat,
                transactionKeys: try await transactionKeys.unused(owner: .credential(credential.credentialID), on: db))
            try await actions.recordResult(
                actionID, package: String(decoding: try JSONEncoder().encode(package), as: UTF8.self), on: db)
            return package
        }
        let sessionToken = try await tokens.issue(
            .session, userGUID: userGUID, contextID: credential.credentialID, boundJKT: credential.deviceJKT,
            lifetime: configuration.sessionLifetime, now: UnixSeconds.date(now))
        logger.info("vault authenticated", metadata: ["credential_version": "\(nextVersion)"])
        return Authenticated(sessionToken: sessionToken, package: package)
    }
}
