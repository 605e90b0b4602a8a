// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// The home screen's vault card (seed 001's `VaultStatusCard`): a symbol, "Vault", a short status, a chevron;
/// tapping it opens the vault status screen.
public struct VaultStatusCardContent: Sendable, Hashable {
    /// The title ("Vault").
    public let title: String
    /// The symbol and short status.
    public let badge: StatusBadge
    /// What VoiceOver reads for the whole card.
    public let accessibilityLabel: String
    /// What tapping does, for VoiceOver.
    public let accessibilityHint: String

    /// Computes the card for a state.
    public init(state: VaultState) {
        title = "Vault"
        switch state {
        case .loading:
            badge = StatusBadge(symbolName: "ellipsis", tone: .busy, text: "Loading…")
        case .notEnrolled:
            badge = StatusBadge(symbolName: "lock.open", tone: .caution, text: "Not Set Up")
        case .pending:
            badge = StatusBadge(symbolName: "arrow.triangle.2.circlepath", tone: .busy, text: "Setup in Progress")
        case .enrolled:
            badge = StatusBadge(symbolName: "arrow.triangle.2.circlepath", tone: .busy, text: "Enrolled")
        case .active:
            badge = StatusBadge(symbolName: "lock.shield.fill", tone: .positive, text: "Active")
        case .error:
            badge = StatusBadge(symbolName: "exclamationmark.triangle", tone: .critical, text: "Error")
        case .signInRequired:
            badge = StatusBadge(
                symbolName: "person.crop.circle.badge.exclamationmark", tone: .caution, text: "Signed Out")
        }
        accessibilityLabel = "Vault, \(badge.text)"
        accessibilityHint = "Shows the vault status."
    }
}
