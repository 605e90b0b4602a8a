// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import VettIDCore
import VettIDMessaging

/// `secret.list` (`SecretListOperation`): names, versions and sizes, no values; no vault authentication needed.
struct SecretListHandler: VaultOperationHandler {
    typealias Operation = SecretListOperation
    let secrets: VaultSecretRepository

    func respond(to request: VaultEmptyPayload, context: VaultHandlerContext) async throws -> SecretList {
        let (list, total) = try await secrets.list(memberID: context.userGUID)
        return SecretList(secrets: list, totalBytes: total, limits: secrets.limits)
    }
}
