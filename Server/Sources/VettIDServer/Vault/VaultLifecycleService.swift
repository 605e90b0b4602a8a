// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import SQLKit
import VettIDCore

/// Vault status, sync (transaction key replenishment) and deploy (docs/protocol.md §6).
///
/// Status is derived, never stored: a current credential makes the vault `enrolled`, and `active` once deployed
/// (`error` when provisioning failed); without one, an open enrollment session makes it `pending`; otherwise it
/// is `not_enrolled`. Sync tops the credential's pool up under the credential's row lock, so concurrent syncs
/// never duplicate or lose keys.
public struct VaultLifecycleService: Sendable {
    /// The status of one member's vault.
    struct Status: Sendable {
        enum Value: String, Sendable {
            case notEnrolled = "not_enrolled"
            case pending
            case enrolled
            case active
            case error
        }

        let value: Value
        let userGUID: String
        let credential: VaultCredential?
        let transactionKeysRemaining: Int?
        let errorMessage: String?
    }

    /// The outcome of a sync.
    struct Synced: Sendable {
        let newKeys: [TransactionPublicKey]
        let remaining: Int
        let credentialVersion: Int64
        let syncedAt: Int64
    }

    let configuration: VaultConfiguration
    let store: any SQLStore
    let credentials = VaultCredentialRepository()
    let sessions = EnrollmentSessionRepository()
    let deployments = VaultDeploymentRepository()
    let transactionKeys: TransactionKeyRepository
    let clock: any WallClock
    /// Told about a device whose credential ``revoke(userID:credentialID:origin:)`` revoked, once it committed.
    var deviceRevoked: DeviceRevocationObserver = { _, _ in }

    /// Whether `deviceJKT` is an enrolled device of the member `userID` whose credential is not revoked: the device
    /// check of a sealed-session handshake (docs/protocol.md §7.3, `unknown_device`).
    func hasEnrolledDevice(userID: UUID, deviceJKT: String) async throws -> Bool {
        try await store.withDatabase { db in
            try await credentials.hasUnrevokedDevice(userID: userID, deviceJKT: deviceJKT, on: db)
        }
    }

    /// The member's vault status; `credentialID` (from a vault session) names the credential to report on.
    func status(userID: UUID, credentialID: String?) async throws -> Status {
        let now = clock.unixSeconds()
        return try await store.withDatabase { db in
            guard let credential = try await liveCredential(userID: userID, credentialID: credentialID, on: db) else {
                let open = try await sessions.open(userID: userID, now: now, on: db)
                return Status(
                    value: open == nil ? .notEnrolled : .pending, userGUID: userID.key, credential: nil,
                    transactionKeysRemaining: nil, errorMessage: nil)
            }
            let remaining = try await transactionKeys.unused(owner: .credential(credential.credentialID), on: db).count
            let deployment = try await deployments.find(userID: userID, on: db)
            let value: Status.Value =
                switch deployment?.status {
                case .active: .active
                case .error: .error
                case nil: .enrolled
                }
            return Status(
                value: value, userGUID: userID.key, credential: credential, transactionKeysRemaining: remaining,
                errorMessage: deployment?.errorMessage)
        }
    }

    /// Replenishes the credential's transaction keys (pool ``VaultConfiguration/transactionKeyPoolSize``, refilled
    /// when fewer than ``VaultConfiguration/transactionKeyRefillThreshold`` remain) and records the sync.
    func sync(userID: UUID, credentialID: String?) async throws -> Synced {
        let now = clock.unixSeconds()
        let configuration = self.configuration
        let engine = store.engine
        return try await store.transaction { db in
            guard let credential = try await liveCredential(userID: userID, credentialID: credentialID, on: db) else {
                throw APIFailure.vault(.conflict, .notEnrolled, "there is no enrolled credential to sync")
            }
            try await credentials.lock(credential.credentialID, on: db, engine: engine)
            let fresh = try await transactionKeys.refill(
                credentialID: credential.credentialID, userID: userID, poolSize: configuration.transactionKeyPoolSize,
                threshold: configuration.transactionKeyRefillThreshold, now: now, on: db)
            try await credentials.markSynced(credential.credentialID, now: now, on: db)
            let remaining = try await transactionKeys.unused(owner: .credential(credential.credentialID), on: db).count
            return Synced(newKeys: fresh, remaining: remaining, credentialVersion: credential.keyVersion, syncedAt: now)
        }
    }

    /// The member's credential named by `credentialID` (a vault session's), else the current one; `nil` when it
    /// is retired or another member's.
    private func liveCredential(userID: UUID, credentialID: String?, on db: any SQLDatabase) async throws
        -> VaultCredential?
    {
        let credential: VaultCredential? =
            if let credentialID { try await credentials.find(credentialID, on: db) } else {
                try await credentials.current(userID: userID, on: db)
            }
        guard let credential, credential.revokedAt == nil, credential.userID == userID else { return nil }
        return credential
    }

    /// Provisions the member's vault and marks it active; idempotent (the first deployment time stays).
    func deploy(userID: UUID, origin: SecurityEvent.Origin) async throws -> VaultDeployment {
        let now = clock.unixSeconds()
        return try await store.transaction { db in
            guard try await credentials.current(userID: userID, on: db) != nil else {
                throw APIFailure.vault(.conflict, .notEnrolled, "enroll a device before deploying the vault")
            }
            let deployment = try await deployments.activate(
                userID: userID, ownerSpace: "OwnerSpace.\(userID.key)", messageSpace: "MessageSpace.\(userID.key)",
                now: now,
                on: db)
            if deployment.deployedAt == now {  // the first deployment, not a repeat
                try await SecurityEventRepository.insert(
                    SecurityEvent(
                        memberID: userID, kind: .vaultDeployed, occurredAt: clock.now(), origin: origin,
                        detail: nil), on: db)
            }
            return deployment
        }
    }

    /// The member's vault credentials (the current one and those it replaced or that were revoked), newest first.
    func credentials(userID: UUID) async throws -> [VaultCredential] {
        try await store.withDatabase { db in try await credentials.all(userID: userID, on: db) }
    }

    /// Revokes the member's credential `credentialID`: its device can no longer authenticate to the vault, and its
    /// unused transaction keys are never offered again. Idempotent: revoking a revoked credential changes nothing and
    /// records no second event. Another member's credential is as unknown as one that does not exist (404).
    func revoke(userID: UUID, credentialID: String, origin: SecurityEvent.Origin) async throws -> VaultCredential {
        let now = clock.unixSeconds()
        let (credential, revokedNow) = try await store.transaction { db in
            guard let credential = try await credentials.find(credentialID, on: db), credential.userID == userID else {
                throw APIFailure.vault(.notFound, .notFound, "the member has no device credential with this id")
            }
            let revokedNow = try await credentials.revoke(credentialID, now: now, on: db)
            if revokedNow {
                try await SecurityEventRepository.insert(
                    SecurityEvent(
                        memberID: userID, kind: .deviceRevoked, occurredAt: clock.now(), origin: origin,
                        detail: "\(credential.deviceType), \(credential.securityLevel)"), on: db)
            }
            return (credential, revokedNow)
        }
        if revokedNow { await deviceRevoked(userID, credential.deviceJKT) }
        return credential
    }

}
