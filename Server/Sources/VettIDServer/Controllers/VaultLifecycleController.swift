// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import OpenAPIRuntime
import VettIDAPI
import VettIDCore

/// Vault status, sync and deploy (docs/protocol.md §6).
struct VaultLifecycleController: Sendable {
    let lifecycle: VaultLifecycleService
    let callers: VaultCallerAuthenticator
    let members: MemberAuthenticator
    let sessionKeys: VaultSessionKeySetSource

    func getVaultStatus(_ input: Operations.GetVaultStatus.Input) async throws -> Operations.GetVaultStatus.Output {
        let caller = try await callers.authenticate(try RequestInfo.required)
        let status = try await lifecycle.status(
            userID: caller.userID, credentialID: caller.credentialID)
        let credential = status.credential
        return .ok(
            .init(
                body: .json(
                    .init(
                        status: Components.Schemas.VaultStatusValue(rawValue: status.value.rawValue) ?? .error,
                        userGuid: status.userGUID,
                        enrolledAt: credential.map { UnixSeconds.date($0.enrolledAt) },
                        lastAuthAt: credential?.lastAuthAt.map(UnixSeconds.date),
                        lastSyncAt: credential?.lastSyncAt.map(UnixSeconds.date),
                        deviceType: credential.flatMap { Components.Schemas.DeviceType(rawValue: $0.deviceType) },
                        securityLevel: credential.flatMap {
                            Components.Schemas.SecurityLevel(rawValue: $0.securityLevel)
                        },
                        transactionKeysRemaining: status.transactionKeysRemaining,
                        credentialVersion: credential.map { Int($0.keyVersion) },
                        errorMessage: status.errorMessage))))
    }

    func vaultSessionKeys(_ input: Operations.VaultSessionKeys.Input) async throws
        -> Operations.VaultSessionKeys.Output
    {
        _ = try await callers.authenticate(try RequestInfo.required)
        return .ok(.init(body: .json(sessionKeys.keySet())))
    }

    func syncVault(_ input: Operations.SyncVault.Input) async throws -> Operations.SyncVault.Output {
        let info = try RequestInfo.required
        let caller = try await callers.authenticate(info)
        var credentialID = caller.credentialID
        if case .json(let body)? = input.body, let requested = body.credentialId {
            guard caller.credentialID == nil || caller.credentialID == requested else {
                throw APIFailure.invalidRequest("credential_id is not the credential of this vault session")
            }
            credentialID = requested
        }
        let synced = try await lifecycle.sync(userID: caller.userID, credentialID: credentialID)
        info.responseHeaders.append(.cacheControl, "no-store")
        return .ok(
            .init(
                body: .json(
                    .init(
                        status: synced.newKeys.isEmpty ? .synced : .keysReplenished,
                        lastSyncAt: UnixSeconds.date(synced.syncedAt), transactionKeysRemaining: synced.remaining,
                        newTransactionKeys: synced.newKeys.map(\.api), credentialVersion: Int(synced.credentialVersion))
                )))
    }

    func deployVault(_ input: Operations.DeployVault.Input) async throws -> Operations.DeployVault.Output {
        let info = try RequestInfo.required
        let member = try await members.authenticate(info)
        let deployment = try await lifecycle.deploy(userID: member.member.id, origin: info.securityOrigin)
        return .ok(
            .init(
                body: .json(
                    .init(
                        status: .active, userGuid: deployment.userID.key, ownerSpaceId: deployment.ownerSpace,
                        messageSpaceId: deployment.messageSpace, deployedAt: UnixSeconds.date(deployment.deployedAt)))))
    }
}
