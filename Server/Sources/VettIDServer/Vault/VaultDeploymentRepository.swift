// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import SQLKit

/// A member's provisioned vault: its NATS namespaces and whether provisioning succeeded.
struct VaultDeployment: Sendable, Equatable {
    enum Status: String, Sendable {
        case active
        case error
    }

    let userID: UUID
    let status: Status
    /// `OwnerSpace.<user_guid>`: the subjects the member's devices publish to the vault on.
    let ownerSpace: String
    /// `MessageSpace.<user_guid>`: the subjects the vault publishes to the member's devices on.
    let messageSpace: String
    let errorMessage: String?
    let deployedAt: Int64
}

/// Vault deployments in the SQL store; deploying is an idempotent upsert.
struct VaultDeploymentRepository: Sendable {
    func find(userID: UUID, on db: any SQLDatabase) async throws -> VaultDeployment? {
        try await db.raw(
            """
            SELECT user_id, status, owner_space, message_space, error_message, deployed_at FROM vault_deployments
            WHERE user_id = \(bind: userID.key)
            """
        ).first().map(Self.decode)
    }

    /// Marks the vault active, keeping the first deployment time; returns the row as it now is.
    func activate(userID: UUID, ownerSpace: String, messageSpace: String, now: Int64, on db: any SQLDatabase)
        async throws
        -> VaultDeployment
    {
        try await db.raw(
            """
            INSERT INTO vault_deployments (user_id, status, owner_space, message_space, error_message, deployed_at, updated_at)
            VALUES (\(bind: userID.key), 'active', \(bind: ownerSpace), \(bind: messageSpace), NULL, \(bind: now), \(bind: now))
            ON CONFLICT (user_id) DO UPDATE SET status = 'active', error_message = NULL, updated_at = \(bind: now)
            """
        ).run()
        guard let deployment = try await find(userID: userID, on: db) else {
            throw StoreCorruption(detail: "vault_deployments row vanished")
        }
        return deployment
    }

    private static func decode(_ row: any SQLRow) throws -> VaultDeployment {
        guard let userID = UUID(uuidString: try row.decode(column: "user_id", as: String.self)),
            let status = VaultDeployment.Status(rawValue: try row.decode(column: "status", as: String.self))
        else { throw StoreCorruption(detail: "vault_deployments row") }
        return VaultDeployment(
            userID: userID, status: status, ownerSpace: try row.decode(column: "owner_space", as: String.self),
            messageSpace: try row.decode(column: "message_space", as: String.self),
            errorMessage: try row.decode(column: "error_message", as: String?.self),
            deployedAt: try row.decode(column: "deployed_at", as: Int64.self))
    }
}
