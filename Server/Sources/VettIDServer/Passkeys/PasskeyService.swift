// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import HTTPTypes
import Logging
import VettIDAttestation
import VettIDCore
import VettIDCrypto
import VettIDVerification

/// Passkeys (docs/security.md, "Passkeys"): ceremonies with single-use challenges kept server-side, the checks of
/// ``PasskeyRelyingParty``, the credential records, and a sign-in that opens the same session as a password.
struct PasskeyService: Sendable {
    /// The options of a registration, for the wire's `PublicKeyCredentialCreationOptionsJSON`.
    struct RegistrationOptions: Sendable {
        let rpID: String
        let rpName: String
        let challenge: [UInt8]
        let userHandle: [UInt8]
        let userName: String
        let displayName: String
        let algorithms: [COSEAlgorithm]
        let excluded: [PasskeyRecord]
        let userVerification: PasskeyRelyingParty.UserVerification
        let timeoutMilliseconds: Int
    }

    /// The options of a sign-in, for the wire's `PublicKeyCredentialRequestOptionsJSON`.
    struct SignInOptions: Sendable {
        let rpID: String
        let challenge: [UInt8]
        let allowed: [(id: [UInt8], transports: [String])]
        let userVerification: PasskeyRelyingParty.UserVerification
        let timeoutMilliseconds: Int
    }

    let repository: PasskeyRepository
    let members: MemberRepository
    let auth: AuthService
    let events: SecurityEventRepository
    let configuration: PasskeyConfiguration
    let publicOrigin: PublicOrigin
    let clock: any WallClock
    /// Makes the made-up credential ids of an email without passkeys stable within this process (a different
    /// answer on each request would tell them apart from real ones).
    private let decoyKey = SymmetricKey(size: .bits256)

    init(
        repository: PasskeyRepository, members: MemberRepository, auth: AuthService,
        configuration: PasskeyConfiguration,
        publicOrigin: PublicOrigin, clock: any WallClock
    ) {
        self.repository = repository
        self.members = members
        self.auth = auth
        self.events = SecurityEventRepository(store: repository.store)
        self.configuration = configuration
        self.publicOrigin = publicOrigin
        self.clock = clock
    }

    /// The relying party now: the public origin is only known once the server listens when its port is 0.
    var relyingParty: PasskeyRelyingParty {
        let origin = publicOrigin.url
        let host = URLComponents(string: origin)?.host ?? "localhost"
        let isLoopbackAddress = host == "127.0.0.1" || host == "::1" || host == "[::1]"
        let rpID = configuration.rpID ?? (isLoopbackAddress ? "localhost" : host)
        var origins = Set(configuration.origins)
        if origins.isEmpty {
            origins.insert(origin)
            if rpID == "localhost", let port = URLComponents(string: origin)?.port {
                origins.insert("http://localhost:\(port)")
            }
        }
        return PasskeyRelyingParty(
            configuration: .init(rpID: rpID, origins: origins, userVerification: configuration.userVerification))
    }

    // MARK: Registration

    /// Starts adding a passkey to `member`.
    func registrationOptions(for member: Member) async throws -> RegistrationOptions {
        let party = relyingParty.configuration
        let handle = try await repository.userHandle(for: member.id)
        let challenge = try await issueChallenge(
            for: PasskeyCeremony(kind: .registration, userID: member.id, allowedCredentialIDs: []))
        let name = [member.firstName, member.lastName].compactMap { $0 }.joined(separator: " ")
        return RegistrationOptions(
            rpID: party.rpID, rpName: configuration.rpName, challenge: challenge, userHandle: handle,
            userName: member.email, displayName: name.isEmpty ? member.email : name, algorithms: party.algorithms,
            excluded: try await repository.list(userID: member.id), userVerification: party.userVerification,
            timeoutMilliseconds: timeoutMilliseconds)
    }

    /// Finishes adding a passkey: the challenge must be one issued to `member` for a registration.
    /// - Throws: ``APIFailure`` 400 `passkey_rejected` naming the failed check, 409 `passkey_exists`.
    func register(
        _ response: PasskeyRegistrationResponse, name rawName: String?, for member: Member,
        origin: SecurityEvent.Origin, logger: Logger
    ) async throws -> PasskeyRecord {
        let now = clock.now()
        let nowMilliseconds = SecurityEventRepository.milliseconds(now)
        do {
            let challenge = try CollectedClientData(json: response.clientDataJSON).challenge
            guard let ceremony = try await repository.consume(challenge: challenge, now: nowMilliseconds),
                ceremony.kind == .registration, ceremony.userID == member.id
            else {
                throw WebAuthnError(
                    .challengeMismatch, "the challenge is unknown, used, expired, or issued for another ceremony")
            }
            let credential = try relyingParty.verifyRegistration(response, challenge: challenge)
            let name = try Self.name(rawName, default: "Passkey added " + now.formatted(.iso8601.year().month().day()))
            let record = PasskeyRecord(
                credentialID: credential.credentialID, userID: member.id, publicKey: credential.publicKey,
                signCount: credential.signCount, backupEligible: credential.backupEligible,
                backupState: credential.backupState, transports: Self.transports(response.transports), name: name,
                attestationFormat: credential.attestationFormat, createdAtMilliseconds: nowMilliseconds,
                lastUsedAtMilliseconds: nil)
            // §7.1 step 25: a credential id registered to anyone is refused.
            guard try await repository.insert(record) else {
                throw APIFailure(.conflict, .passkeyExists, "this passkey is registered already")
            }
            try await events.record(
                SecurityEvent(
                    memberID: member.id, kind: .passkeyAdded, occurredAt: now, origin: origin, detail: record.name))
            logger.info(
                "passkey added",
                metadata: [
                    "member_id": "\(member.id)", "backup_eligible": "\(record.backupEligible)",
                    "attestation": "\(record.attestationFormat)", "algorithm": "\(record.publicKey.algorithm)",
                ])
            return record
        } catch let error as WebAuthnError {
            logger.notice("passkey registration refused", metadata: ["check": "\(error.code)"])
            throw APIFailure(.badRequest, .passkeyRejected, error.message)
        }
    }

    // MARK: Sign-in

    /// Starts a sign-in: discoverable without `email`; with it, that member's passkeys (or a made-up one).
    func signInOptions(email rawEmail: String?, origin: SecurityEvent.Origin) async throws -> SignInOptions {
        try auth.limit(ip: origin.ip)
        let party = relyingParty.configuration
        var allowed: [(id: [UInt8], transports: [String])] = []
        var userID: UUID?
        if let rawEmail, !rawEmail.isEmpty {
            let email = (try? EmailAddress(rawEmail))?.value ?? rawEmail.lowercased()
            if let member = try await members.find(email: email) {
                userID = member.id
                allowed = try await repository.list(userID: member.id).map { ($0.credentialID, $0.transports) }
            }
            if allowed.isEmpty {
                // The same shape as a member with one passkey, so the answer does not say whether the email has an
                // account (nor whether it has passkeys).
                let decoy = HMAC<SHA256>.authenticationCode(for: Array(email.utf8), using: decoyKey)
                allowed = [(Array(decoy), ["internal", "hybrid"])]
            }
        }
        let challenge = try await issueChallenge(
            for: PasskeyCeremony(kind: .authentication, userID: userID, allowedCredentialIDs: allowed.map(\.id)))
        return SignInOptions(
            rpID: party.rpID, challenge: challenge, allowed: allowed, userVerification: party.userVerification,
            timeoutMilliseconds: timeoutMilliseconds)
    }

    /// Finishes a sign-in and opens the member's session. Every refusal is the same 401 `passkey_rejected`; the
    /// log says which check failed.
    func signIn(
        _ response: PasskeyAssertionResponse, dpopJKT: String?, origin: SecurityEvent.Origin,
        sessionLifetime: Duration? = nil, logger: Logger
    ) async throws -> AuthService.Issued {
        try auth.limit(ip: origin.ip)
        let refused = APIFailure(.unauthorized, .passkeyRejected, "the passkey sign-in was refused")
        let now = clock.now()
        let nowMilliseconds = SecurityEventRepository.milliseconds(now)
        var owner: UUID?
        do {
            let challenge = try CollectedClientData(json: response.clientDataJSON).challenge
            guard let ceremony = try await repository.consume(challenge: challenge, now: nowMilliseconds),
                ceremony.kind == .authentication
            else {
                throw WebAuthnError(
                    .challengeMismatch, "the challenge is unknown, used, expired, or issued for another ceremony")
            }
            guard let record = try await repository.find(credentialID: response.credentialID) else {
                throw WebAuthnError(.credentialNotAllowed, "no member has this credential")
            }
            owner = record.userID
            guard let ownerHandle = try await repository.findUserHandle(userID: record.userID) else {
                throw StoreCorruption(detail: "a passkey without its member's user handle")
            }
            var identifiedHandle: [UInt8]?
            if let identified = ceremony.userID {
                // A member without a user handle has no passkeys: whatever credential answers is not theirs.
                guard let handle = try await repository.findUserHandle(userID: identified) else {
                    throw WebAuthnError(.credentialNotAllowed, "the member the sign-in was started for has no passkeys")
                }
                identifiedHandle = handle
            }
            let verified = try relyingParty.verifyAssertion(
                response, challenge: challenge, allowedCredentialIDs: ceremony.allowedCredentialIDs,
                identifiedUserHandle: identifiedHandle, credential: record.stored(ownerUserHandle: ownerHandle))
            guard
                try await repository.recordUse(
                    credentialID: record.credentialID, expectedSignCount: record.signCount,
                    signCount: verified.signCount, backupState: verified.backupState, now: nowMilliseconds)
            else {
                throw WebAuthnError(.counterNotIncreased, "another sign-in with this passkey used the same counter")
            }
            guard let member = try await members.find(id: record.userID) else { throw refused }
            return try await auth.openSession(
                for: member, dpopJKT: dpopJKT, origin: origin, sessionLifetime: sessionLifetime, method: "a passkey",
                logger: logger)
        } catch let error as WebAuthnError {
            logger.notice("passkey sign-in refused", metadata: ["check": "\(error.code)"])
            if let owner {
                try await events.record(
                    SecurityEvent(
                        memberID: owner, kind: .passkeySignInFailed, occurredAt: now, origin: origin,
                        detail: error.code.rawValue))
            }
            throw refused
        }
    }

    // MARK: Management

    func list(for member: Member) async throws -> [PasskeyRecord] {
        try await repository.list(userID: member.id)
    }

    /// - Throws: 404 `passkey_not_found` for an id that is not one of the member's passkeys.
    func rename(id: String, to rawName: String, for member: Member, origin: SecurityEvent.Origin) async throws
        -> PasskeyRecord
    {
        let name = try Self.name(rawName, default: nil)
        guard let credentialID = Base64URL.decode(id),
            let record = try await repository.rename(credentialID: credentialID, userID: member.id, to: name)
        else { throw Self.notFound }
        try await events.record(
            SecurityEvent(
                memberID: member.id, kind: .passkeyRenamed, occurredAt: clock.now(), origin: origin, detail: name))
        return record
    }

    /// Removes one of the member's passkeys. Every account has a password (registration requires one), so
    /// removing the last passkey never leaves a member without a way to sign in.
    /// - Throws: 404 `passkey_not_found` for an id that is not one of the member's passkeys.
    func remove(id: String, for member: Member, origin: SecurityEvent.Origin, logger: Logger) async throws {
        guard let credentialID = Base64URL.decode(id),
            let removed = try await repository.remove(credentialID: credentialID, userID: member.id)
        else { throw Self.notFound }
        try await events.record(
            SecurityEvent(
                memberID: member.id, kind: .passkeyRemoved, occurredAt: clock.now(), origin: origin,
                detail: removed.name))
        logger.info("passkey removed", metadata: ["member_id": "\(member.id)"])
    }

    // MARK: Helpers

    private var timeoutMilliseconds: Int { Int(configuration.challengeLifetime / .milliseconds(1)) }

    private func issueChallenge(for ceremony: PasskeyCeremony) async throws -> [UInt8] {
        let challenge = SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }
        let now = SecurityEventRepository.milliseconds(clock.now())
        try await repository.insert(
            challenge: challenge, for: ceremony, now: now, expiresAt: now + Int64(timeoutMilliseconds))
        return challenge
    }

    private static let notFound = APIFailure(.notFound, .passkeyNotFound, "you have no passkey with this id")

    /// A name as given (trimmed, 1 to 64 characters, no control characters), or `default` when none was given.
    static func name(_ raw: String?, default fallback: String?) throws -> String {
        let trimmed = raw?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        if trimmed.isEmpty, let fallback { return fallback }
        guard (1...64).contains(trimmed.count),
            !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { throw APIFailure.invalidRequest("a passkey's name is 1 to 64 characters without control characters") }
        return trimmed
    }

    /// The transports kept as hints: the known WebAuthn names only, at most eight.
    static func transports(_ raw: [String]) -> [String] {
        let known: Set = ["usb", "nfc", "ble", "smart-card", "hybrid", "internal"]
        return Array(raw.filter(known.contains).prefix(8))
    }
}
