// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The member's profile in the vault, for the app.

public import VettIDCore
public import VettIDMessaging

/// The member's profile kept sealed in the vault (`vettid.vault.profile`): named text fields, over the sealed
/// session of the attached connection (``VaultHandlerLink``).
///
/// ```swift
/// let profile = try await vettid.vault.profile.get()
/// try await vettid.vault.profile.update(set: ["display_name": "Ada"], remove: ["nickname"])
/// ```
public struct VaultProfileClient: Sendable {
    let link: VaultHandlerLink
    /// The limits checked before sending.
    public let limits: VaultDataLimits

    init(link: VaultHandlerLink, limits: VaultDataLimits = .standard) {
        self.link = link
        self.limits = limits
    }

    /// The profile (`VaultProfile.empty` before the first update).
    /// - Throws: `VaultMessageError` `vault_unavailable`.
    public func get() async throws(VaultMessageError) -> VaultProfile {
        try await link.call(ProfileGetOperation.self, VaultEmptyPayload())
    }

    /// Sets the fields of `set`, then removes those of `remove`, in one step.
    /// - Parameters:
    ///   - set: Fields to set, by name.
    ///   - remove: Fields to remove.
    ///   - expectedVersion: The version to update; `nil`: whatever is stored.
    /// - Returns: the profile as stored.
    /// - Throws: `VaultMessageError` `invalid_profile`, `version_conflict`, `vault_unavailable`.
    @discardableResult
    public func update(set: [String: String] = [:], remove: [String] = [], expectedVersion: Int64? = nil)
        async throws(VaultMessageError) -> VaultProfile
    {
        for (name, value) in set { try limits.checkProfileField(name: name, value: value) }
        for name in remove { try limits.checkProfileField(name: name, value: nil) }
        return try await link.call(
            ProfileUpdateOperation.self, .init(set: set, remove: remove, expectedVersion: expectedVersion))
    }
}
