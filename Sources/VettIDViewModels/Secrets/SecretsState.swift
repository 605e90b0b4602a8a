// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDMessaging

/// What the secrets screen shows: the member's secrets as last listed (names, versions and sizes, never values),
/// the vault's limits, and what the screen is doing.
///
/// The screen's states read from it: **loading** (``activity`` is ``Activity/loading``; nothing to show yet while
/// ``secrets`` is `nil`), **empty** (``isEmpty``), **a list**, **one value revealed**, **locked until a vault
/// authentication** (``Activity/locked(name:)``), **an error with a retry** (``Activity/failed(_:)``), and a save
/// or a delete in progress.
public struct SecretsState: Sendable, Hashable {
    /// What the screen is doing.
    public enum Activity: Sendable, Hashable {
        /// Reading the list (also the state before the first ``SecretsViewModel/load()``).
        case loading
        /// Showing the list, or the empty message.
        case idle
        /// Reading the value of `name`.
        case revealing(name: String)
        /// Showing one value, in its row.
        case revealed(RevealedSecret)
        /// The vault refused to read `name` until this device authenticates to it again
        /// (`vault_authentication_required`): the screen asks for the vault password, then reads `name` again.
        case locked(name: String)
        /// Storing a value under `name`.
        case saving(name: String)
        /// Deleting `name`.
        case deleting(name: String)
        /// The last request failed; the list, if any, is still shown.
        case failed(SecretsFailure)
    }

    /// The secrets, sorted by name (ignoring case); `nil` until the first list arrives.
    public internal(set) var secrets: [SecretSummary]?
    /// The vault's limits, from the last list.
    public internal(set) var limits: VaultDataLimits?
    /// What the screen is doing.
    public internal(set) var activity: Activity

    /// Creates a state (`secrets` are sorted by name).
    public init(secrets: [SecretSummary]? = nil, limits: VaultDataLimits? = nil, activity: Activity = .loading) {
        self.secrets = secrets.map(Self.sorted)
        self.limits = limits
        self.activity = activity
    }

    /// Whether the list has been read and the member keeps no secret.
    public var isEmpty: Bool { secrets?.isEmpty == true }

    /// The summary of `name` in the list, if any.
    public func summary(named name: String) -> SecretSummary? {
        secrets?.first { $0.name == name }
    }

    /// `secrets` by name, ignoring case (names equal but for case in Unicode order), the same in every locale.
    static func sorted(_ secrets: [SecretSummary]) -> [SecretSummary] {
        secrets.sorted { ($0.name.lowercased(), $0.name) < ($1.name.lowercased(), $1.name) }
    }
}
