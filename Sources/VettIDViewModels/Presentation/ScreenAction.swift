// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// A button a screen offers: what it does (`kind`, which the view maps to a view-model call), what it says,
/// whether it can be pressed now, and how it is emphasised.
///
/// ```swift
/// if let action = screen.primaryAction {
///     Button(action.title) { perform(action.kind) }.disabled(!action.isEnabled)
/// }
/// ```
public struct ScreenAction<Kind: Sendable & Hashable>: Sendable, Hashable {
    /// How a button is emphasised.
    public enum Role: String, Sendable, Hashable {
        /// The screen's main action (a prominent button).
        case primary
        /// Another action (a bordered or plain button).
        case secondary
        /// An action that ends or deletes something (shown in the destructive style).
        case destructive
    }

    /// What the button does.
    public let kind: Kind
    /// The button's title, which is also its accessibility label.
    public let title: String
    /// Whether the button can be pressed now (false while a request runs or the input is incomplete).
    public let isEnabled: Bool
    /// How it is emphasised.
    public let role: Role
    /// What pressing it does, for VoiceOver (`nil` when the title says it all).
    public let accessibilityHint: String?

    /// Creates an action.
    public init(
        _ kind: Kind, title: String, isEnabled: Bool = true, role: Role = .primary, accessibilityHint: String? = nil
    ) {
        self.kind = kind
        self.title = title
        self.isEnabled = isEnabled
        self.role = role
        self.accessibilityHint = accessibilityHint
    }
}
