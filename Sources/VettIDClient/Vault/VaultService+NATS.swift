// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Crypto
import Foundation
import Logging
import OpenAPIRuntime
import VettIDAPI
import VettIDCore
public import VettIDMessaging

// The NATS endpoints over the member's session (or the vault session), like status and sync. Server codes arrive as
// they are: 404 `not_found` (a token or status before the account exists, or an unknown token to revoke),
// 503 `nats_not_configured` (the server has no nats-server), 401 `invalid_token`, 429 `rate_limited`.
extension VaultService: NatsCredentialProvider {
    /// Allocates the member's NATS namespaces (`POST /vault/nats/account`), or reads them when they exist (the
    /// call is idempotent; servers before 2026-11-25 answered 409 `account_exists` instead).
    /// - Throws: ``APIError``: `sign_in_required`, `reauthentication_required`, `invalid_token`, `network_error`,
    ///   `invalid_response` (an answer without a field `NatsAccount` requires, such as the older servers' one with
    ///   `owner_space` / `message_space`), ….
    public func createNatsAccount() async throws(APIError) -> NatsAccount {
        let body = try await authorizedCall("createNatsAccount", reauthenticate: true) { client in
            try await client.createNatsAccount(.init(headers: .init(dpop: ""))).ok.body.json
        }
        configuration.logger.debug("Vault: NATS account ready")
        return Self.account(from: body)
    }

    /// Issues a NATS token (`POST /vault/nats/token`): a fresh user NKey and JWT with the permissions of
    /// `clientType` in the member's namespaces.
    /// - Parameters:
    ///   - clientType: `.app` (the default) or `.vault`.
    ///   - deviceID: Names the device in ``getNatsStatus()`` (at most 128 characters).
    ///   - mailboxKey: The device's mailbox key (``MailboxKeyStore/publicKeyBase64URL()``), for an app token over the
    ///     vault session: the token then names the device's mailbox (docs/protocol.md 7.5).
    /// - Throws: ``APIError``: `not_found` (404, no NATS account yet), `nats_not_configured` (503),
    ///   `invalid_response` (the token names no member namespace, or another member's), `reauthentication_required`, ….
    public func createNatsToken(
        clientType: NatsClientType = .app, deviceID: String? = nil, mailboxKey: String? = nil
    ) async throws(APIError) -> NatsCredentials {
        guard let wireType = Components.Schemas.NatsClientType(rawValue: clientType.rawValue) else {
            throw APIError(code: .invalidRequest, description: "Unknown NATS client type '\(clientType.rawValue)'.")
        }
        let request = Components.Schemas.NatsTokenRequest(
            clientType: wireType, deviceId: deviceID, mailboxKey: mailboxKey)
        // Only the device's own vault session registers a mailbox key (the server names the device by its proof).
        let body = try await authorizedCall(
            "createNatsToken", reauthenticate: true, vaultSessionOnly: mailboxKey != nil
        ) { client in
            try await client.createNatsToken(.init(headers: .init(dpop: ""), body: .json(request))).ok.body.json
        }
        let permissions = NatsPermissionSet(publish: body.permissions.publish, subscribe: body.permissions.subscribe)
        guard let namespace = Self.namespace(in: permissions) else {
            throw APIError(
                code: .invalidResponse, description: "The NATS token's permissions name no member namespace.")
        }
        if let stored = try? await credentialStore.load(), stored.package.userGUID != namespace.userGUID {
            throw APIError(
                code: .invalidResponse, description: "The NATS token is for another member than the stored credential.")
        }
        guard !body.natsJwt.isEmpty, !body.natsSeed.isEmpty, !body.natsEndpoint.isEmpty else {
            throw APIError(code: .invalidResponse, description: "The server issued an incomplete NATS token.")
        }
        let mailbox = body.mailbox.map { MailboxAddress(stream: $0.stream, consumer: $0.consumer, subject: $0.subject) }
        if let mailbox, !mailbox.subject.hasPrefix("\(namespace.ownerSpace).forApp.mailbox.") {
            throw APIError(
                code: .invalidResponse, description: "The NATS token names a mailbox outside the member's space.")
        }
        let credentials = NatsCredentials(
            tokenID: body.tokenId,
            jwt: body.natsJwt,
            seed: body.natsSeed,
            creds: body.natsCreds,
            endpoint: body.natsEndpoint,
            expiresAt: body.expiresAt,
            permissions: permissions,
            namespace: namespace,
            clientType: clientType,
            mailbox: mailbox
        )
        configuration.logger.debug(
            "Vault: NATS token issued",
            metadata: [
                "nats.token_id": "\(credentials.tokenID)", "nats.client_type": "\(clientType.rawValue)",
                "nats.expires_at": "\(credentials.expiresAt)",
            ]
        )
        return credentials
    }

    /// The member's NATS account and active tokens (`GET /vault/nats/status`).
    /// - Throws: ``APIError``: `reauthentication_required`, `invalid_token`, `network_error`, ….
    public func getNatsStatus() async throws(APIError) -> NatsStatus {
        let body = try await authorizedCall("getNatsStatus", reauthenticate: true) { client in
            try await client.getNatsStatus(.init(headers: .init(dpop: ""))).ok.body.json
        }
        return NatsStatus(
            hasAccount: body.hasAccount,
            account: body.account.map(Self.account(from:)),
            endpoint: body.natsEndpoint,
            activeTokens: body.activeTokens.map { token in
                NatsTokenInfo(
                    tokenID: token.tokenId,
                    clientType: NatsClientType(rawValue: token.clientType.rawValue) ?? .app,
                    deviceID: token.deviceId,
                    userPublicKey: token.userPublicKey,
                    issuedAt: token.issuedAt,
                    expiresAt: token.expiresAt
                )
            }
        )
    }

    /// Revokes a NATS token (`POST /vault/nats/token/revoke`); nats-server cuts its connections off.
    /// - Throws: ``APIError``: `not_found` (404), `nats_not_configured` (503), `reauthentication_required`, ….
    public func revokeNatsToken(id: String) async throws(APIError) -> NatsTokenRevocation {
        let request = Components.Schemas.NatsTokenRevokeRequest(tokenId: id)
        let body = try await authorizedCall("revokeNatsToken", reauthenticate: true) { client in
            try await client.revokeNatsToken(.init(headers: .init(dpop: ""), body: .json(request))).ok.body.json
        }
        configuration.logger.debug("Vault: NATS token revoked", metadata: ["nats.token_id": "\(body.tokenId)"])
        return NatsTokenRevocation(tokenID: body.tokenId, status: body.status.rawValue, revokedAt: body.revokedAt)
    }

    /// ``NatsCredentialProvider``: ``issueAppCredentials(deviceID:)`` for this device
    /// (``VaultServiceConfiguration/deviceID``).
    public func issueCredentials() async throws -> NatsCredentials {
        try await issueAppCredentials(deviceID: configuration.deviceID)
    }

    /// An `app` token named `deviceID` with the device's mailbox key: over the vault session (only a device's
    /// session registers one); beside a member session, over the vault session while it lasts, else over the member
    /// session without a mailbox until the next token.
    /// - Throws: ``APIError`` as ``createNatsToken(clientType:deviceID:mailboxKey:)``.
    public func issueAppCredentials(deviceID: String?) async throws(APIError) -> NatsCredentials {
        let mailboxKey = try await mailboxKeys.publicKeyBase64URL()
        guard memberSession != nil else {
            return try await createNatsToken(clientType: .app, deviceID: deviceID, mailboxKey: mailboxKey)
        }
        if await sessionStore.current() != nil {
            do {
                return try await createNatsToken(clientType: .app, deviceID: deviceID, mailboxKey: mailboxKey)
            } catch  where error.code == .reauthenticationRequired || error.code == .invalidToken {
                configuration.logger.debug("Vault: no vault session for the mailbox; this token comes without one")
            }
        }
        return try await createNatsToken(clientType: .app, deviceID: deviceID, mailboxKey: nil)
    }

    /// ``NatsCredentialProvider``: the device's mailbox key (``mailboxKeys``).
    public func mailboxPrivateKey() async -> Curve25519.KeyAgreement.PrivateKey? {
        try? await mailboxKeys.privateKey()
    }

    /// The account of the wire's `NatsAccount` (an answer without a required field was refused while decoding).
    static func account(from body: Components.Schemas.NatsAccount) -> NatsAccount {
        NatsAccount(
            userGUID: body.userGuid,
            ownerSpace: body.ownerSpaceId,
            messageSpace: body.messageSpaceId,
            accountPublicKey: body.accountPublicKey,
            createdAt: body.createdAt,
            endpoint: body.natsEndpoint,
            status: body.status
        )
    }

    /// The member namespace the permissions are about: the GUID of their `OwnerSpace.{guid}.…` subjects, which
    /// must all agree.
    static func namespace(in permissions: NatsPermissionSet) -> VaultNamespace? {
        let guids = Set(
            (permissions.publish + permissions.subscribe).compactMap { subject -> String? in
                let tokens = subject.split(separator: ".", omittingEmptySubsequences: false)
                guard tokens.count >= 3, tokens[0] == Substring(VaultNamespace.ownerSpaceRoot) else { return nil }
                return String(tokens[1])
            }
        )
        guard guids.count == 1, let guid = guids.first else { return nil }
        return try? VaultNamespace(userGUID: guid)
    }
}
