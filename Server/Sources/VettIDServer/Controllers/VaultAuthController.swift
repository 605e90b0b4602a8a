// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import OpenAPIRuntime
import VettIDAPI
import VettIDCore
import VettIDCrypto

/// Vault authentication (docs/protocol.md §5): action request, then auth execute.
struct VaultAuthController: Sendable {
    let vaultAuth: VaultAuthService
    let devices: DeviceTokenAuthenticator
    let dpop: DPoPGuard
    /// The lifetimes of action and vault session tokens the answers state.
    let configuration: VaultConfiguration

    func actionRequest(_ input: Operations.ActionRequest.Input) async throws -> Operations.ActionRequest.Output {
        guard case .json(let body) = input.body else { throw APIFailure.invalidRequest("expected a JSON body") }
        let info = try RequestInfo.required
        let proof = try await dpop.verify(info, endpoint: .token)
        let issued = try await vaultAuth.requestAction(
            userGUID: body.userGuid, credentialID: body.credentialId, action: body.action.rawValue,
            assertion: body.assertion, clientData: body.clientData, proof: proof, logger: info.logger)
        info.responseHeaders.append(.cacheControl, "no-store")
        return .ok(
            .init(
                body: .json(
                    .init(
                        actionId: issued.action.id, actionToken: issued.token, tokenType: "DPoP",
                        expiresIn: Int(configuration.actionLifetime.components.seconds),
                        ledgerAuthToken: issued.lat.api, useKeyId: issued.transactionKey.keyID,
                        transactionKey: issued.transactionKey.api))))
    }

    func authExecute(_ input: Operations.AuthExecute.Input) async throws -> Operations.AuthExecute.Output {
        guard case .json(let body) = input.body else { throw APIFailure.invalidRequest("expected a JSON body") }
        // openapi.yaml `AuthExecuteRequest.key_version`: minimum 1, maximum 2147483647 (the generated types do not
        // check bounds).
        guard (1...Int(Int32.max)).contains(body.keyVersion) else {
            throw APIFailure.invalidRequest("field `key_version` must be between 1 and \(Int32.max)")
        }
        let info = try RequestInfo.required
        let token = try await devices.authenticate(.action, info)
        let authenticated = try await vaultAuth.execute(
            actionID: body.actionId, token: token, credentialID: body.credentialId,
            sealedCredential: body.sealedCredential, keyVersion: Int64(body.keyVersion),
            encryptedPassword: body.encryptedPassword.payload, logger: info.logger)
        info.responseHeaders.append(.cacheControl, "no-store")
        return .ok(
            .init(
                body: .json(
                    .init(
                        status: .authenticated, sessionToken: authenticated.sessionToken, tokenType: "DPoP",
                        expiresIn: Int(configuration.sessionLifetime.components.seconds),
                        credentialPackage: authenticated.package.api))))
    }
}
