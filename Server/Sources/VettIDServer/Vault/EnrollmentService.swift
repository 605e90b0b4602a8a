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

/// Vault enrollment: `start`, `attestation`, `password`, `finalize` over an ``EnrollmentStateMachine``
/// (docs/protocol.md §4).
///
/// Every state change is one transaction with a compare-and-set on the session's state, so a server stopped hard
/// between two steps keeps exactly what was committed, and a client that lost a response can repeat the step: a
/// repeat by the same device key is answered as before (after checking it is the same request), anything else
/// out of order is 409 `step_out_of_order`. A session that never reaches `completed` has no credential and so can
/// never authenticate.
public struct EnrollmentService: Sendable {
    /// An opened (or resumed) session.
    struct Started: Sendable {
        let session: EnrollmentSession
        let token: String
        let transactionKeys: [TransactionPublicKey]
    }

    /// The answer to the attestation step.
    struct Attested: Sendable {
        let deviceType: String
        let securityLevel: String
    }

    let configuration: VaultConfiguration
    let store: any SQLStore
    let sessions = EnrollmentSessionRepository()
    let credentials = VaultCredentialRepository()
    let transactionKeys: TransactionKeyRepository
    let invitations: InvitationRepository
    let members: MemberRepository
    let attestation: DeviceAttestationVerifier
    let tokens: VaultTokenService
    let hasher: PasswordHasher
    let policy: PasswordPolicy
    let keyring: CredentialKeyring
    let clock: any WallClock
    let startLimiter: RateLimiter
    /// Told about the devices a new enrollment retired (their credentials revoked), once it committed.
    var devicesRevoked: DeviceRevocationObserver = { _, _ in }

    // MARK: Start

    /// Redeems the invitation and opens a session bound to `deviceJKT`, with the transaction key pool.
    ///
    /// A start repeated by the same device key for an invitation it already redeemed, while that session is still
    /// open, resumes that session (a client that lost the response, e.g. to a server crash, continues).
    func start(
        invitationCode text: String, deviceType: String, deviceID: String?, deviceJKT: String, clientIP: String?,
        logger: Logger
    ) async throws -> Started {
        if let clientIP, case .limited(let seconds) = startLimiter.consume("enroll:" + clientIP) {
            throw APIFailure.rateLimited(retryAfter: seconds)
        }
        guard let code = InvitationCode(parsing: text) else { throw InvitationService.notFound }
        if configuration.requireAttestation && !attestation.canVerifyAnything {
            throw APIFailure.vault(
                .serviceUnavailable, .attestationNotConfigured,
                "enrollment requires attestation, and this server has no attestation configured")
        }
        let now = clock.unixSeconds()
        let configuration = self.configuration
        let (session, keys) = try await store.transaction { db -> (EnrollmentSession, [TransactionPublicKey]) in
            guard let memberID = try await invitations.redeem(code, now: UnixSeconds.date(now), on: db) else {
                return try await resumeOrRefuse(code: code, deviceJKT: deviceJKT, now: now, on: db)
            }
            let sessionID = "es_" + Self.randomID()
            let keys = try await transactionKeys.issue(
                configuration.transactionKeyPoolSize, userID: memberID, owner: .session(sessionID), now: now, on: db)
            let session = EnrollmentSession(
                id: sessionID, userID: memberID, invitationCode: code.value, deviceJKT: deviceJKT,
                deviceType: deviceType,
                deviceID: deviceID, state: .started, attestationRequired: configuration.requireAttestation,
                attestationChallenge: Base64URL.encode(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }),
                attestationFormat: nil, attestedKeyID: nil, securityLevel: nil, passwordKeyID: keys[0].keyID,
                passwordHash: nil, credentialID: nil, package: nil, createdAt: now,
                expiresAt: now + configuration.enrollmentSessionLifetime.components.seconds
            )
            try await sessions.insert(session, on: db)
            return (session, keys)
        }
        logger.info("enrollment session opened", metadata: ["enrollment_session": "\(session.id)"])
        let token = try await tokens.issue(
            .enrollment, userGUID: session.userID.key, contextID: session.id, boundJKT: deviceJKT,
            lifetime: .seconds(max(1, session.expiresAt - now)), now: UnixSeconds.date(now))
        return Started(session: session, token: token, transactionKeys: keys)
    }

    /// The invitation was not pending: resume this device's open session for it, or say why not.
    private func resumeOrRefuse(code: InvitationCode, deviceJKT: String, now: Int64, on db: any SQLDatabase)
        async throws
        -> (EnrollmentSession, [TransactionPublicKey])
    {
        guard let invitation = try await InvitationRepository.fetch(db, code) else { throw InvitationService.notFound }
        switch invitation.status(at: UnixSeconds.date(now)) {
        case .used:
            if let session = try await sessions.find(invitationCode: code.value, on: db),
                session.deviceJKT == deviceJKT,
                session.state != .completed, !session.isExpired(at: now)
            {
                return (session, try await transactionKeys.unused(owner: .session(session.id), on: db))
            }
            throw APIFailure.vault(.conflict, .invitationUsed, "the invitation was already used")
        case .revoked: throw APIFailure.vault(.conflict, .invitationRevoked, "the invitation was revoked")
        case .expired, .pending: throw APIFailure.vault(.gone, .invitationExpired, "the invitation expired")
        }
    }

    // MARK: Steps

    /// The session named by the request, after checking the token is for it and it has not expired.
    func session(_ id: String, token: VaultTokenService.Verified) async throws -> EnrollmentSession {
        guard token.contextID == id else {
            throw APIFailure.invalidDeviceToken("the enrollment token is for another session")
        }
        guard let session = try await store.withDatabase({ try await sessions.find(id, on: $0) }),
            session.userID.key == token.userGUID
        else { throw APIFailure.invalidDeviceToken("the enrollment session does not exist") }
        guard session.deviceJKT == token.boundJKT else { throw APIFailure.proofByAnotherKey }
        guard !session.isExpired(at: clock.unixSeconds()) else { throw APIFailure.enrollmentExpired }
        return session
    }

    /// Verifies the device attestation for the session's challenge, bound to the session's device key.
    func attest(
        _ session: EnrollmentSession, format: DeviceAttestationFormatName, keyID: String?, attestationObject: String?,
        developmentToken: String?, logger: Logger
    ) async throws -> Attested {
        switch EnrollmentStateMachine.decide(
            .attestation, in: session.state, attestationRequired: session.attestationRequired)
        {
        case .outOfOrder: throw APIFailure.stepOutOfOrder
        case .repeatStep:
            guard session.attestationFormat == format.rawValue,
                format == .development || Self.canonicalKeyID(keyID) == session.attestedKeyID
            else { throw APIFailure.stepOutOfOrder }
            return Attested(deviceType: session.deviceType, securityLevel: session.securityLevel ?? "development")
        case .advance: break
        }
        let now = clock.unixSeconds()
        let verified = try await verifyAttestation(
            session, format: format, keyID: keyID, attestationObject: attestationObject,
            developmentToken: developmentToken, logger: logger)
        let moved = try await store.transaction { db in
            if let key = verified.key {
                let inserted = try await AttestedKeyRepository.insert(
                    keyID: key.keyID, publicKey: key.attested.publicKey, environment: key.environment,
                    receipt: key.attested.receipt, deviceJKT: session.deviceJKT, now: now, on: db)
                guard inserted else {
                    throw APIFailure.gate(.conflict, .attestationKeyExists, "this key id is already registered")
                }
            }
            return try await sessions.markAttested(
                session.id, format: format.rawValue, attestedKeyID: verified.key?.keyID,
                securityLevel: verified.securityLevel, now: now, on: db)
        }
        guard moved else { throw APIFailure.stepOutOfOrder }
        logger.info("enrollment attested", metadata: ["security_level": "\(verified.securityLevel)"])
        return Attested(deviceType: session.deviceType, securityLevel: verified.securityLevel)
    }

    private struct VerifiedAttestation {
        struct Key {
            let keyID: String
            let attested: AttestedKey
            let environment: String
        }
        let key: Key?
        let securityLevel: String
    }

    private func verifyAttestation(
        _ session: EnrollmentSession, format: DeviceAttestationFormatName, keyID: String?, attestationObject: String?,
        developmentToken: String?, logger: Logger
    ) async throws -> VerifiedAttestation {
        if format == .development {
            guard attestation.acceptsDevelopmentTokens else {
                throw APIFailure.vault(.badRequest, .attestationNotConfigured, "development attestation is disabled")
            }
            guard let developmentToken, attestation.acceptsDevelopmentToken(developmentToken) else {
                throw APIFailure.vault(.badRequest, .attestationInvalid, "the development token is not accepted")
            }
            return VerifiedAttestation(key: nil, securityLevel: "development")
        }
        let verifier = format == .appleAppAttest ? attestation.apple : attestation.software
        guard let verifier else {
            throw APIFailure.vault(
                .badRequest, format == .software ? .attestationUntrustedRoot : .attestationNotConfigured,
                "\(format.rawValue) attestation is not accepted by this server")
        }
        guard let keyID = Self.canonicalKeyID(keyID), let keyIDBytes = Data(base64Encoded: keyID).map(Array.init) else {
            throw APIFailure.invalidRequest("key_id must be standard base64 of 32 bytes")
        }
        guard let attestationObject, let object = Data(base64Encoded: attestationObject).map(Array.init),
            !object.isEmpty
        else { throw APIFailure.invalidRequest("attestation_object must be standard base64") }
        guard let challenge = Base64URL.decode(session.attestationChallenge),
            let jkt = Base64URL.decode(session.deviceJKT),
            let clientDataHash = AppAttestClientDataHash.binding(challenge: challenge, keyThumbprint: jkt)
        else { throw StoreCorruption(detail: "enrollment session challenge or device key") }
        do throws(AppAttestError) {
            let attested = try await verifier.verifyAttestation(
                object, keyID: keyIDBytes, clientDataHash: clientDataHash)
            let environment = format == .software ? "software" : attested.environment.name
            return VerifiedAttestation(
                key: .init(keyID: keyID, attested: attested, environment: environment),
                securityLevel: format == .software ? "software" : "hardware")
        } catch {
            throw DeviceAttestationVerifier.failure(for: error, logger: logger)
        }
    }

    /// Opens the HPKE-encrypted password (claiming its key once), checks the policy and stores its Argon2id hash.
    func setPassword(_ session: EnrollmentSession, encrypted payload: EncryptedPayload, logger: Logger) async throws {
        let decision = EnrollmentStateMachine.decide(
            .password, in: session.state, attestationRequired: session.attestationRequired)
        if decision == .outOfOrder { throw APIFailure.stepOutOfOrder }
        let password = try await openPassword(payload, session: session)
        if decision == .repeatStep {
            guard let hash = session.passwordHash, try await hasher.verify(password, against: hash).matches else {
                throw APIFailure.stepOutOfOrder
            }
            return
        }
        let email = try await members.find(id: session.userID)?.email
        let hints = email.flatMap { try? EmailAddress($0) }?.passwordHints ?? []
        if case .failure(let violation) = policy.check(password, userInputs: hints) {
            throw APIFailure(
                .badRequest, .weakPassword,
                "the password does not meet the policy; encrypt the next attempt to another unused transaction key",
                reasons: violation.reasons, score: violation.score)
        }
        let hash = try await hasher.hash(password)
        let now = clock.unixSeconds()
        let moved = try await store.withDatabase { db in
            try await sessions.markPasswordSet(session.id, from: session.state, passwordHash: hash, now: now, on: db)
        }
        guard moved else { throw APIFailure.stepOutOfOrder }
        logger.info("enrollment password set")
    }

    private func openPassword(_ payload: EncryptedPayload, session: EnrollmentSession) async throws -> String {
        let now = clock.unixSeconds()
        let claim = try await store.withDatabase { db in
            try await transactionKeys.claim(payload.keyID, owner: .session(session.id), now: now, on: db)
        }
        let bytes = try claim.open(
            payload,
            context: TransactionKeyContext(purpose: .enrollmentPassword, contextID: session.id, keyID: payload.keyID))
        guard let password = String(validating: bytes, as: UTF8.self) else {
            throw APIFailure.invalidRequest("the password is not valid UTF-8")
        }
        return password
    }

    // MARK: Finalize

    /// Seals the credential, retires the member's previous credential, hands the unused transaction keys to the
    /// credential and returns the package — all in one transaction.
    func finalize(_ session: EnrollmentSession, origin: SecurityEvent.Origin, logger: Logger) async throws
        -> CredentialPackage
    {
        switch EnrollmentStateMachine.decide(
            .finalize, in: session.state, attestationRequired: session.attestationRequired)
        {
        case .outOfOrder: throw APIFailure.stepOutOfOrder
        case .repeatStep: return try await repeatedPackage(session)
        case .advance: break
        }
        guard let passwordHash = session.passwordHash else {
            throw StoreCorruption(detail: "password_set without a hash")
        }
        let now = clock.unixSeconds()
        let credentialID = "cr_" + Self.randomID()
        let contents = CredentialContents(
            passwordPHC: passwordHash, userGUID: session.userID.key, credentialID: credentialID, version: 1,
            maxFailedAttempts: configuration.maxFailedAttempts, createdAt: now, updatedAt: now)
        let (sealedKey, sealedCredential) = try keyring.seal(contents)
        let credential = VaultCredential(
            credentialID: credentialID, userID: session.userID, deviceJKT: session.deviceJKT,
            deviceType: session.deviceType,
            securityLevel: session.securityLevel ?? "development", attestationFormat: session.attestationFormat,
            attestedKeyID: session.attestedKeyID, keyVersion: 1, sealedKey: sealedKey, failedAttempts: 0, lockedAt: nil,
            revokedAt: nil, enrolledAt: now, lastAuthAt: nil, lastSyncAt: nil)
        let (package, retired) = try await store.transaction { db in
            try await credentials.insert(credential, on: db)
            let retired = try await credentials.revokeOthers(
                userID: session.userID, keeping: credentialID, now: now, on: db)
            try await transactionKeys.transfer(session: session.id, to: credentialID, on: db)
            try await SecurityEventRepository.insert(
                SecurityEvent(
                    memberID: session.userID, kind: .deviceEnrolled, occurredAt: clock.now(), origin: origin,
                    detail: "\(session.deviceType), \(credential.securityLevel)"), on: db)
            let package = CredentialPackage(
                userGUID: session.userID.key, credentialID: credentialID, sealedCredential: sealedCredential,
                keyVersion: 1,
                lat: keyring.lat.lat(userGUID: session.userID.key, credentialID: credentialID, version: 1),
                transactionKeys: try await transactionKeys.unused(owner: .credential(credentialID), on: db))
            let json = String(decoding: try JSONEncoder().encode(package), as: UTF8.self)
            guard
                try await sessions.markCompleted(
                    session.id, credentialID: credentialID, package: json, now: now, on: db)
            else { throw APIFailure.stepOutOfOrder }
            return (package, retired)
        }
        for deviceJKT in retired { await devicesRevoked(session.userID, deviceJKT) }
        logger.info("vault enrolled", metadata: ["credential": "\(credentialID)"])
        return package
    }

    /// The package of a completed session, again, while the credential has not moved on since.
    private func repeatedPackage(_ session: EnrollmentSession) async throws -> CredentialPackage {
        guard let json = session.package, let credentialID = session.credentialID,
            let package = try? JSONDecoder().decode(CredentialPackage.self, from: Data(json.utf8))
        else { throw APIFailure.stepOutOfOrder }
        let credential = try await store.withDatabase { try await credentials.find(credentialID, on: $0) }
        guard let credential, credential.revokedAt == nil, credential.keyVersion == package.keyVersion else {
            throw APIFailure.stepOutOfOrder
        }
        return package
    }

    // MARK: Helpers

    static func randomID() -> String { Base64URL.encode(SymmetricKey(size: .bits128).withUnsafeBytes { Array($0) }) }

    /// Standard base64 of exactly 32 bytes, canonicalised; `nil` otherwise.
    static func canonicalKeyID(_ text: String?) -> String? {
        guard let text, let bytes = Data(base64Encoded: text), bytes.count == 32 else { return nil }
        return bytes.base64EncodedString()
    }
}

/// The attestation formats on the wire (`AttestationFormat` in openapi.yaml).
enum DeviceAttestationFormatName: String, Sendable {
    case appleAppAttest = "apple-appattest"
    case software
    case development
}
