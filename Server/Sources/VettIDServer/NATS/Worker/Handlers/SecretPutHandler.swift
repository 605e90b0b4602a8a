// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import VettIDCore
import VettIDMessaging

/// `secret.put` (`SecretPutOperation`): stores a value as the next version of its name, within the member's limits.
struct SecretPutHandler: VaultOperationHandler {
    typealias Operation = SecretPutOperation
    let secrets: VaultSecretRepository
    let clock: any WallClock

    func respond(to request: SecretPutRequest, context: VaultHandlerContext) async throws -> SecretSummary {
        try secrets.limits.checkSecretName(request.name)
        try secrets.limits.checkSecretValue(byteCount: request.value.count)
        return try await secrets.put(
            memberID: context.userGUID, name: request.name, value: Array(request.value),
            expectedVersion: request.expectedVersion, now: clock.unixMilliseconds())
    }
}
