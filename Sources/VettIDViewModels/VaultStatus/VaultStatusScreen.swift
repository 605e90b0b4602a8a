// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import VettIDClient

/// Everything the vault status screen shows (seed 001's `VaultStatusView`, `VaultActiveCard` and cards for the
/// other states), computed from a ``VaultState``; the view lays it out and maps each action to the view model.
///
/// ```swift
/// let screen = VaultStatusScreen(state: model.state, isBusy: model.machine.isBusy, format: .current)
/// // screen.card?.badge.text == "Vault Active", screen.card?.rows[0] == InfoRowContent(label: "Last Sync", …)
/// ```
public struct VaultStatusScreen: Sendable, Hashable {
    /// What the screen's buttons do.
    public enum ActionKind: String, Sendable, Hashable {
        /// Start enrollment (``VaultState/notEnrolled``).
        case enroll
        /// Sync the vault (``VaultStatusViewModel/sync()``).
        case sync
        /// Repeat the failed action (``VaultStatusViewModel/retry()``).
        case retry
        /// Read the status again (``VaultStatusViewModel/refresh()``).
        case refresh
        /// Show the sign-in screen (``VaultState/signInRequired``).
        case signIn
    }

    /// The card that describes the vault.
    public struct Card: Sendable, Hashable {
        /// The header: symbol, tone, title.
        public let badge: StatusBadge
        /// A sentence under the header, if any.
        public let message: String?
        /// Label/value lines (empty when the state has no details).
        public let rows: [InfoRowContent]
        /// The card's button, if any.
        public let action: ScreenAction<ActionKind>?
    }

    /// The navigation title.
    public let title: String
    /// Whether a spinner replaces the card (loading with nothing to show yet).
    public let showsProgress: Bool
    /// What the spinner says, for VoiceOver.
    public let progressLabel: String
    /// The card, or `nil` while loading.
    public let card: Card?
    /// Whether pull to refresh is offered (not while a request runs, not once the session has ended).
    public let allowsRefresh: Bool

    /// Computes the screen.
    /// - Parameters:
    ///   - state: The view model's state.
    ///   - isBusy: Whether a request runs (buttons are disabled meanwhile).
    ///   - format: How dates and numbers read.
    public init(state: VaultState, isBusy: Bool = false, format: PresentationFormat = .current) {
        title = "Vault Status"
        progressLabel = "Loading the vault status"
        let enabled = !isBusy
        switch state {
        case .loading:
            showsProgress = true
            card = nil
            allowsRefresh = false
            return
        case .notEnrolled:
            card = Card(
                badge: StatusBadge(symbolName: "lock.open", tone: .caution, text: "No Vault Yet"),
                message: "Set up your vault to keep your credentials on a device only you control.",
                rows: [],
                action: ScreenAction(.enroll, title: "Set Up Vault", isEnabled: enabled))
        case .pending:
            card = Card(
                badge: StatusBadge(symbolName: "arrow.triangle.2.circlepath", tone: .busy, text: "Setup in Progress"),
                message: "Your vault is being set up. This can take a few minutes.",
                rows: [],
                action: ScreenAction(.refresh, title: "Check Again", isEnabled: enabled, role: .secondary))
        case .enrolled(let status):
            card = Card(
                badge: StatusBadge(symbolName: "checkmark.shield", tone: .busy, text: "Vault Enrolled"),
                message: "Your vault is enrolled and is being deployed.",
                rows: Self.rows(for: status, format: format),
                action: ScreenAction(.refresh, title: "Check Again", isEnabled: enabled, role: .secondary))
        case .active(let status):
            card = Card(
                badge: StatusBadge(symbolName: "checkmark.shield.fill", tone: .positive, text: "Vault Active"),
                message: Self.keysWarning(for: status),
                rows: Self.rows(for: status, format: format),
                action: ScreenAction(
                    .sync, title: "Sync Now", isEnabled: enabled,
                    accessibilityHint: "Fetches new transaction keys and updates the status."))
        case .error(let message, let retryable):
            card = Card(
                badge: StatusBadge(
                    symbolName: "exclamationmark.triangle.fill", tone: .critical, text: "Vault Unavailable"),
                message: message,
                rows: [],
                action: retryable
                    ? ScreenAction(.retry, title: "Try Again", isEnabled: enabled)
                    : ScreenAction(.refresh, title: "Reload", isEnabled: enabled, role: .secondary))
        case .signInRequired:
            card = Card(
                badge: StatusBadge(
                    symbolName: "person.crop.circle.badge.exclamationmark", tone: .caution, text: "Signed Out"),
                message: "Your session has ended. Sign in again to see your vault.",
                rows: [],
                action: ScreenAction(.signIn, title: "Sign In"))
            showsProgress = false
            allowsRefresh = false
            return
        }
        showsProgress = false
        allowsRefresh = enabled
    }

    /// The transaction keys below which the active card warns that the vault should be synced.
    public static let lowKeyThreshold = 5

    /// The label/value lines of an enrolled or active vault, in the seed's order (Last Sync, Transaction Keys,
    /// Credential Version), then what else the server reported.
    static func rows(for status: VaultStatus, format: PresentationFormat) -> [InfoRowContent] {
        var rows: [InfoRowContent] = []
        if status.status == .active || status.lastSyncAt != nil {
            rows.append(InfoRowContent(label: "Last Sync", value: status.lastSyncAt.map(format.dateTime) ?? "Never"))
        }
        rows.append(
            InfoRowContent(
                label: "Transaction Keys", value: status.transactionKeysRemaining.map(format.count) ?? "Unknown"))
        if let version = status.credentialVersion {
            rows.append(InfoRowContent(label: "Credential Version", value: format.count(version)))
        }
        if let lastAuthAt = status.lastAuthAt {
            rows.append(InfoRowContent(label: "Last Unlock", value: format.dateTime(lastAuthAt)))
        }
        if let enrolledAt = status.enrolledAt {
            rows.append(InfoRowContent(label: "Enrolled", value: format.date(enrolledAt)))
        }
        return rows
    }

    static func keysWarning(for status: VaultStatus) -> String? {
        guard let remaining = status.transactionKeysRemaining, remaining < lowKeyThreshold else { return nil }
        return remaining == 0
            ? "No transaction keys left: sync before you unlock the vault again."
            : "Few transaction keys left: sync to replenish them."
    }
}
