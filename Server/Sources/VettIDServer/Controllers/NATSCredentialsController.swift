// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import OpenAPIRuntime
import VettIDAPI
import VettIDCore
import VettIDCrypto
import VettIDMessaging

/// NATS namespaces and tokens (docs/protocol.md §7). Callers are vault sessions or members, as for vault status.
struct NATSCredentialsController: Sendable {
    let nats: NATSCredentialService
    /// The public key of the NATS application account every member account lives in.
    let applicationAccountKey: String
    let callers: VaultCallerAuthenticator

    func createNatsAccount(_ input: Operations.CreateNatsAccount.Input) async throws
        -> Operations.CreateNatsAccount.Output
    {
        let info = try RequestInfo.required
        let caller = try await callers.authenticate(info)
        let account = try await nats.createAccount(userID: caller.userID)
        return .ok(
            .init(
                body: .json(
                    account.api(
                        accountKey: applicationAccountKey,
                        endpoint: nats.advertisedEndpoint))))
    }

    func createNatsToken(_ input: Operations.CreateNatsToken.Input) async throws -> Operations.CreateNatsToken.Output {
        let info = try RequestInfo.required
        let caller = try await callers.authenticate(info)
        guard case .json(let body) = input.body else { throw APIFailure.invalidRequest("a JSON body is required") }
        guard let clientType = NatsClientType(rawValue: body.clientType.rawValue) else {
            throw APIFailure.invalidRequest("client_type must be app or vault")
        }
        // The generated types do not check `maxLength`.
        if let deviceID = body.deviceId, deviceID.unicodeScalars.count > 128 {
            throw APIFailure.invalidRequest("device_id is at most 128 characters")
        }
        var mailbox: NATSCredentialService.MailboxRegistration?
        if let key = body.mailboxKey {
            guard clientType == .app, let deviceJKT = caller.deviceJKT else {
                throw APIFailure.invalidRequest(
                    "only a device's vault session registers a mailbox key, for an app token")
            }
            do {
                _ = try MailboxSeal.publicKey(Base64URL.decode(key) ?? [])
            } catch {
                throw APIFailure.invalidRequest("mailbox_key is not a usable X25519 key: \(error.message)")
            }
            mailbox = .init(deviceJKT: deviceJKT, mailboxKey: key)
        }
        let issued = try await nats.issueToken(
            userID: caller.userID, clientType: clientType, deviceID: body.deviceId, mailbox: mailbox)
        info.responseHeaders.append(.cacheControl, "no-store")
        return .ok(
            .init(
                body: .json(
                    .init(
                        tokenId: issued.record.tokenID, natsJwt: issued.credentials.jwt,
                        natsSeed: issued.credentials.seed, natsCreds: issued.credentials.creds,
                        natsEndpoint: issued.endpoint, expiresAt: UnixSeconds.date(issued.record.expiresAt),
                        permissions: .init(
                            publish: issued.permissions.publish, subscribe: issued.permissions.subscribe),
                        mailbox: issued.mailbox.map {
                            .init(stream: $0.stream, consumer: $0.consumer, subject: $0.subject)
                        }))))
    }

    func getNatsStatus(_ input: Operations.GetNatsStatus.Input) async throws -> Operations.GetNatsStatus.Output {
        let info = try RequestInfo.required
        let caller = try await callers.authenticate(info)
        let status = try await nats.status(userID: caller.userID)
        return .ok(
            .init(
                body: .json(
                    .init(
                        hasAccount: status.account != nil,
                        account: status.account?.api(accountKey: applicationAccountKey, endpoint: status.endpoint),
                        natsEndpoint: status.endpoint,
                        activeTokens: status.activeTokens.map { token in
                            .init(
                                tokenId: token.tokenID,
                                clientType: Components.Schemas.NatsClientType(rawValue: token.clientType.rawValue)
                                    ?? .app,
                                deviceId: token.deviceID, userPublicKey: token.userPublicKey,
                                issuedAt: UnixSeconds.date(token.issuedAt), expiresAt: UnixSeconds.date(token.expiresAt)
                            )
                        }))))
    }

    func revokeNatsToken(_ input: Operations.RevokeNatsToken.Input) async throws -> Operations.RevokeNatsToken.Output {
        let info = try RequestInfo.required
        let caller = try await callers.authenticate(info)
        guard case .json(let body) = input.body else { throw APIFailure.invalidRequest("a JSON body is required") }
        guard (1...128).contains(body.tokenId.utf8.count) else {
            throw APIFailure.invalidRequest("token_id must be 1 to 128 characters")
        }
        let record = try await nats.revoke(
            userID: caller.userID, tokenID: body.tokenId, origin: info.securityOrigin)
        return .ok(
            .init(
                body: .json(
                    .init(tokenId: record.tokenID, status: .revoked, revokedAt: UnixSeconds.date(record.revokedAt ?? 0))
                )))
    }
}

extension NATSAccountRecord {
    /// The account in the product documents' shape (`owner_space_id`, `message_space_id`, `nats_endpoint`, `status`).
    func api(accountKey: String, endpoint: String?) -> Components.Schemas.NatsAccount {
        .init(
            userGuid: userID.key, ownerSpaceId: ownerSpace, messageSpaceId: messageSpace, natsEndpoint: endpoint,
            status: "active", accountPublicKey: accountKey, createdAt: UnixSeconds.date(createdAt))
    }
}
