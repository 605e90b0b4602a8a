// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The `vault.info` handler: what the server knows about the member's vault.

import Logging
import VettIDCore
public import VettIDCrypto
import VettIDMessaging

/// `vault.info`: the member's vault status, transaction keys remaining and subject spaces.
///
/// Result:
/// ```json
/// {"user_guid":"…","vault_status":"active","transaction_keys_remaining":20,
///  "owner_space_id":"OwnerSpace.…","message_space_id":"MessageSpace.…"}
/// ```
/// `transaction_keys_remaining` is omitted when the member has no credential. When the lookup fails the
/// request is answered with `vault_unavailable`.
public struct VaultInfoHandler: VaultHandler {
    public let id = VaultHandlerID.vaultInfo.rawValue
    public let description = "The member's vault status, transaction keys remaining and NATS spaces."
    private let status: VaultRequestProcessor.StatusLookup

    /// - Parameter status: Looks up a member's vault status by GUID.
    public init(status: @escaping VaultRequestProcessor.StatusLookup) {
        self.status = status
    }

    public func handle(_ payload: JSONValue, context: VaultHandlerContext) async throws -> JSONValue {
        let found: (vaultStatus: String, transactionKeysRemaining: Int?)
        do {
            found = try await status(context.userGUID)
        } catch {
            context.logger.error("vault status lookup failed", metadata: ["error": "\(type(of: error))"])
            throw VaultMessageError(.unavailable, "the vault status is unavailable")
        }
        var members: [(String, JSONValue)] = [
            ("user_guid", .string(context.userGUID)), ("vault_status", .string(found.vaultStatus)),
        ]
        if let remaining = found.transactionKeysRemaining {
            members.append(("transaction_keys_remaining", .integer(Int64(remaining))))
        }
        members += [
            ("owner_space_id", .string(context.namespace.ownerSpace)),
            ("message_space_id", .string(context.namespace.messageSpace)),
        ]
        return .object(members)
    }
}
