// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import VettIDCore
import VettIDMessaging

/// `secret.get` (`SecretGetOperation`): a secret's value, only for a device that authenticated to the vault within
/// the window (`vault_authentication_required` otherwise, checked before the store is read).
struct SecretGetHandler: VaultOperationHandler {
    typealias Operation = SecretGetOperation
    let secrets: VaultSecretRepository
    let authentication: VaultAuthenticationWindow

    func respond(to request: SecretNameRequest, context: VaultHandlerContext) async throws -> SecretValue {
        try secrets.limits.checkSecretName(request.name)
        try await authentication.require(memberID: context.userGUID, deviceThumbprint: context.deviceThumbprint)
        guard let value = try await secrets.get(memberID: context.userGUID, name: request.name) else {
            throw VaultMessageError(.secretNotFound, "no secret has this name")
        }
        return value
    }
}
