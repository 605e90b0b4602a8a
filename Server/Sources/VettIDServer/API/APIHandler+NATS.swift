import Foundation
import HTTPTypes
import OpenAPIRuntime
import VettIDAPI
import VettIDCrypto
import VettIDMessaging

/// NATS namespaces and tokens (docs/protocol.md §7). Callers are vault sessions or members, as for vault status.
extension APIHandler {
    func createNatsAccount(_ input: Operations.CreateNatsAccount.Input) async throws
        -> Operations.CreateNatsAccount.Output
    {
        let caller = try await authenticateVaultCaller()
        let account = try await components.nats.createAccount(userID: caller.userID)
        return .created(.init(body: .json(account.api(accountKey: components.natsTrust.applicationAccount.publicKey))))
    }

    func createNatsToken(_ input: Operations.CreateNatsToken.Input) async throws -> Operations.CreateNatsToken.Output {
        let caller = try await authenticateVaultCaller()
        guard case .json(let body) = input.body else { throw APIFailure.invalidRequest("a JSON body is required") }
        guard let clientType = NatsClientType(rawValue: body.clientType.rawValue) else {
            throw APIFailure.invalidRequest("client_type must be app or vault")
        }
        // The generated types do not check `maxLength`.
        if let deviceID = body.deviceId, deviceID.unicodeScalars.count > 128 {
            throw APIFailure.invalidRequest("device_id is at most 128 characters")
        }
        let issued = try await components.nats.issueToken(
            userID: caller.userID, clientType: clientType, deviceID: body.deviceId)
        try request.responseHeaders.append(.cacheControl, "no-store")
        return .created(
            .init(
                body: .json(
                    .init(
                        tokenId: issued.record.tokenID, natsJwt: issued.credentials.jwt,
                        natsSeed: issued.credentials.seed, natsCreds: issued.credentials.creds,
                        natsEndpoint: issued.endpoint, expiresAt: UnixTime.date(issued.record.expiresAt),
                        permissions: .init(publish: issued.permissions.publish, subscribe: issued.permissions.subscribe)))))
    }

    func getNatsStatus(_ input: Operations.GetNatsStatus.Input) async throws -> Operations.GetNatsStatus.Output {
        let caller = try await authenticateVaultCaller()
        let status = try await components.nats.status(userID: caller.userID)
        let accountKey = components.natsTrust.applicationAccount.publicKey
        return .ok(
            .init(
                body: .json(
                    .init(
                        hasAccount: status.account != nil, account: status.account?.api(accountKey: accountKey),
                        natsEndpoint: status.endpoint,
                        activeTokens: status.activeTokens.map { token in
                            .init(
                                tokenId: token.tokenID,
                                clientType: Components.Schemas.NatsClientType(rawValue: token.clientType.rawValue) ?? .app,
                                deviceId: token.deviceID, userPublicKey: token.userPublicKey,
                                issuedAt: UnixTime.date(token.issuedAt), expiresAt: UnixTime.date(token.expiresAt))
                        }))))
    }

    func revokeNatsToken(_ input: Operations.RevokeNatsToken.Input) async throws -> Operations.RevokeNatsToken.Output {
        let caller = try await authenticateVaultCaller()
        guard case .json(let body) = input.body else { throw APIFailure.invalidRequest("a JSON body is required") }
        guard (1...128).contains(body.tokenId.utf8.count) else {
            throw APIFailure.invalidRequest("token_id must be 1 to 128 characters")
        }
        let record = try await components.nats.revoke(userID: caller.userID, tokenID: body.tokenId)
        return .ok(
            .init(
                body: .json(
                    .init(tokenId: record.tokenID, status: .revoked, revokedAt: UnixTime.date(record.revokedAt ?? 0)))))
    }
}

extension NATSAccount {
    func api(accountKey: String) -> Components.Schemas.NatsAccount {
        .init(
            userGuid: userID.key, ownerSpace: ownerSpace, messageSpace: messageSpace, accountPublicKey: accountKey,
            createdAt: UnixTime.date(createdAt))
    }
}
