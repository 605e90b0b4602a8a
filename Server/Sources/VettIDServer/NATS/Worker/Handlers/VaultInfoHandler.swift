// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The `vault.info` handler: what the server knows about the member's vault.

import Logging
import VettIDCore
public import VettIDMessaging

/// `vault.info` (`VaultInfoOperation`, sealed-only): the member's vault status, transaction keys remaining and
/// subject spaces. When the lookup fails the request is answered with `vault_unavailable`.
public struct VaultInfoHandler: VaultOperationHandler {
    public typealias Operation = VaultInfoOperation
    private let status: VaultRequestProcessor.StatusLookup

    /// - Parameter status: Looks up a member's vault status by GUID.
    public init(status: @escaping VaultRequestProcessor.StatusLookup) {
        self.status = status
    }

    public func respond(to request: VaultEmptyPayload, context: VaultHandlerContext) async throws -> VaultInfo {
        let found: (vaultStatus: String, transactionKeysRemaining: Int?)
        do {
            found = try await status(context.userGUID)
        } catch {
            context.logger.error("vault status lookup failed", metadata: ["error": "\(type(of: error))"])
            throw VaultMessageError(.unavailable, "the vault status is unavailable")
        }
        return VaultInfo(
            userGUID: context.userGUID, vaultStatus: found.vaultStatus,
            transactionKeysRemaining: found.transactionKeysRemaining, ownerSpaceID: context.namespace.ownerSpace,
            messageSpaceID: context.namespace.messageSpace)
    }
}
