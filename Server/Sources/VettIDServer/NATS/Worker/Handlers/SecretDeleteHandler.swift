// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import VettIDCore
import VettIDMessaging

/// `secret.delete` (`SecretDeleteOperation`): removes the secret's row; `secret_not_found` when there is none.
struct SecretDeleteHandler: VaultOperationHandler {
    typealias Operation = SecretDeleteOperation
    let secrets: VaultSecretRepository

    func respond(to request: SecretNameRequest, context: VaultHandlerContext) async throws -> SecretSummary {
        try secrets.limits.checkSecretName(request.name)
        guard
            let deleted = try await secrets.delete(
                memberID: context.userGUID, name: request.name, expectedVersion: request.expectedVersion)
        else { throw VaultMessageError(.secretNotFound, "no secret has this name") }
        return deleted
    }
}
