// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import Logging
import SQLKit
import VettIDCore
import VettIDMessaging

/// Members' NATS namespaces and tokens (docs/protocol.md §7): allocation, issuance, status and revocation.
///
/// A token is a user JWT signed by the application account for a fresh user NKey, with exactly the
/// permissions of `NatsPermissionSet.forClient(_:in:)` (VettIDMessaging) and explicit limits. Its JWT and seed
/// are returned once and never stored; the store keeps the user key so a revocation can name it. Revoking rebuilds the
/// application account JWT from the store (every unexpired revocation, a strictly newer `iat`) and pushes it
/// to nats-server, which cuts the revoked client off.
public struct NATSCredentialService: Sendable {
    /// A token as issued: the secret parts exist only in this value.
    struct IssuedToken: Sendable {
        let record: NATSTokenRecord
        let credentials: NATSUserCredentials
        let endpoint: String
        let permissions: NatsPermissionSet
        /// The device's mailbox, when it registered a key and the mailboxes are on.
        let mailbox: MailboxAddress?
    }

    /// A member's NATS state.
    struct Status: Sendable {
        let account: NATSAccountRecord?
        let endpoint: String?
        let activeTokens: [NATSTokenRecord]
    }

    let configuration: NATSConfiguration
    let trust: NATSTrust
    let store: any SQLStore
    let clock: any WallClock
    /// Pushes account JWTs; `nil` when no nats-server is configured.
    let publisher: NATSAccountPublisher?
    /// The devices' mailboxes; `nil` without a nats-server or with `nats_mailbox_enabled = false`.
    let mailbox: MailboxService?
    let logger: Logger
    let accounts = NATSAccountRepository()
    let tokens = NATSTokenRepository()

    /// Allocates `OwnerSpace.{guid}` and `MessageSpace.{guid}`, or returns the member's existing account
    /// (idempotent, as the product documents' setup flow expects).
    func createAccount(userID: UUID) async throws -> NATSAccountRecord {
        let namespace = try VaultNamespace(userGUID: userID.key)
        let account = NATSAccountRecord(
            userID: userID, ownerSpace: namespace.ownerSpace, messageSpace: namespace.messageSpace,
            createdAt: clock.unixSeconds())
        return try await store.withDatabase { db in
            if try await accounts.create(account, on: db) { return account }
            guard let existing = try await accounts.find(userID: userID, on: db) else {
                throw APIFailure(
                    .internalServerError, .internalError, "the member's NATS account exists but cannot be read")
            }
            return existing
        }
    }

    /// Where apps connect, when this server has a nats-server.
    var advertisedEndpoint: String? {
        configuration.url == nil ? nil : configuration.advertisedURL
    }

    /// A device's mailbox registration: its key thumbprint and its checked X25519 key (base64url).
    struct MailboxRegistration: Sendable {
        let deviceJKT: String
        let mailboxKey: String
    }

    /// Issues a token of `clientType`. 503 `nats_not_configured` without a nats-server, 404 `not_found`
    /// without namespaces, 429 `too_many_tokens` at the limit of active tokens. With `mailbox` (an app token of a
    /// device), registers the device's key, makes sure of its consumer and lets the token pull it (docs/protocol.md
    /// 7.5); when the mailboxes are off or unreachable the token comes without one.
    func issueToken(
        userID: UUID, clientType: NatsClientType, deviceID: String?, mailbox registration: MailboxRegistration? = nil
    ) async throws -> IssuedToken {
        guard let endpoint = configuration.advertisedURL, configuration.url != nil else {
            throw APIFailure.nats(.serviceUnavailable, .natsNotConfigured, "this server has no NATS server configured")
        }
        let address = try await openMailbox(registration, userID: userID, clientType: clientType)
        let now = clock.unixSeconds()
        let lifetime = clientType == .app ? configuration.appTokenLifetime : configuration.vaultTokenLifetime
        let expiresAt = now + lifetime.components.seconds
        let configuration = self.configuration
        let trust = self.trust
        let engine = store.engine
        return try await store.transaction { db in
            try await accounts.lock(userID: userID, on: db, engine: engine)
            guard let account = try await accounts.find(userID: userID, on: db) else {
                throw APIFailure.nats(.notFound, .notFound, "create the member's NATS account first")
            }
            let active = try await tokens.active(userID: userID, now: now, on: db)
            guard active.count < configuration.maxActiveTokensPerMember else {
                throw APIFailure.nats(
                    .tooManyRequests, .tooManyTokens,
                    "the member holds \(active.count) active NATS tokens; revoke one first")
            }
            let namespace = try VaultNamespace(userGUID: account.userID.key)
            let permissions =
                clientType == .app
                ? NatsPermissionSet.app(in: namespace, mailbox: address)
                : NatsPermissionSet.forClient(clientType, in: namespace)
            let credentials = try trust.userCredentials(
                name: "\(clientType.rawValue)-\(account.userID.key.prefix(8))", permissions: permissions,
                issuedAt: now, expiresAt: expiresAt)
            let record = NATSTokenRecord(
                tokenID: "nt_" + UUID().uuidString.lowercased(), userID: userID, clientType: clientType,
                deviceID: deviceID, userPublicKey: credentials.publicKey, issuedAt: now, expiresAt: expiresAt,
                revokedAt: nil)
            try await tokens.insert(record, on: db)
            return IssuedToken(
                record: record, credentials: credentials, endpoint: endpoint, permissions: permissions, mailbox: address
            )
        }
    }

    /// The device's mailbox for an app token, when it registered a key, the member has namespaces and the mailboxes
    /// are on.
    private func openMailbox(
        _ registration: MailboxRegistration?, userID: UUID, clientType: NatsClientType
    ) async throws -> MailboxAddress? {
        guard let registration, clientType == .app, let mailbox else { return nil }
        guard try await store.withDatabase({ db in try await accounts.find(userID: userID, on: db) }) != nil else {
            return nil
        }
        return await mailbox.open(
            userID: userID, deviceJKT: registration.deviceJKT, mailboxKey: registration.mailboxKey)
    }

    /// The member's namespaces (if any) and active tokens.
    func status(userID: UUID) async throws -> Status {
        let now = clock.unixSeconds()
        return try await store.withDatabase { db in
            Status(
                account: try await accounts.find(userID: userID, on: db),
                endpoint: configuration.advertisedURL,
                activeTokens: try await tokens.active(userID: userID, now: now, on: db))
        }
    }

    /// Revokes the member's token and has nats-server enforce it. Repeating a revocation re-sends the update.
    ///
    /// The revocation is committed before the push. If nats-server cannot be reached it answers 503
    /// `nats_unavailable`; the revocation stays recorded and is pushed again when the publisher reconnects.
    func revoke(userID: UUID, tokenID: String, origin: SecurityEvent.Origin) async throws -> NATSTokenRecord {
        guard let publisher else {
            throw APIFailure.nats(.serviceUnavailable, .natsNotConfigured, "this server has no NATS server configured")
        }
        let now = clock.unixSeconds()
        let record = try await store.transaction { db in
            guard let (record, revokedNow) = try await tokens.revoke(tokenID: tokenID, userID: userID, now: now, on: db)
            else {
                throw APIFailure.nats(.notFound, .notFound, "the member has no NATS token with this id")
            }
            if revokedNow {  // a repeated revocation re-sends the update but records nothing
                try await SecurityEventRepository.insert(
                    SecurityEvent(
                        memberID: userID, kind: .natsTokenRevoked, occurredAt: clock.now(), origin: origin,
                        detail: record.deviceID.map { "\(record.clientType.rawValue) on \($0)" }
                            ?? record.clientType.rawValue),
                    on: db)
            }
            return record
        }
        do {
            try await publisher.pushCurrent()
        } catch {
            logger.warning(
                "revocation recorded but not pushed", metadata: ["token_id": "\(tokenID)", "error": "\(error)"])
            throw APIFailure.nats(
                .serviceUnavailable, .natsUnavailable,
                "the revocation is recorded; nats-server has not confirmed it yet (it is re-sent on reconnect)")
        }
        logger.info("NATS token revoked", metadata: ["token_id": "\(tokenID)", "user_key": "\(record.userPublicKey)"])
        return record
    }
}
