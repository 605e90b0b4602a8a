// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
import VettIDAPI

/// One of the signed-in member's passkeys, as the server keeps it.
public struct MemberPasskey: Sendable, Hashable, Identifiable {
    /// The credential id, base64url without padding (what ``AuthManager/renamePasskey(id:to:)`` and
    /// ``AuthManager/removePasskey(id:)`` take).
    public let id: String
    /// What the member calls it.
    public let name: String
    /// When it was added.
    public let createdAt: Date
    /// When it last signed in, or `nil` if never.
    public let lastUsedAt: Date?
    /// Whether it is a multi-device (synced) passkey.
    public let isSynced: Bool
    /// Whether it is backed up now.
    public let isBackedUp: Bool
    /// The transports the authenticator reported.
    public let transports: [String]

    init(_ api: Components.Schemas.Passkey) {
        id = api.id
        name = api.name
        createdAt = api.createdAt
        lastUsedAt = api.lastUsedAt
        isSynced = api.backupEligible
        isBackedUp = api.backedUp
        transports = api.transports
    }
}
