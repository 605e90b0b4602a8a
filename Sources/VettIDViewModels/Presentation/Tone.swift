// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// What a status means, for the colour and symbol a view gives it.
///
/// Views map each tone to a semantic system colour (one that adapts to dark mode and increased contrast); no
/// presentation value names a colour.
public enum Tone: String, Sendable, Hashable, CaseIterable {
    /// Informational, nothing to do.
    case neutral
    /// Working as it should.
    case positive
    /// Something is running.
    case busy
    /// Needs the member's attention, but nothing is broken.
    case caution
    /// Failed or refused.
    case critical

    /// The SF Symbols name that marks a message of this tone, so a message never relies on colour alone (and its
    /// text keeps the primary colour, which meets contrast requirements).
    public var symbolName: String {
        switch self {
        case .neutral: "info.circle"
        case .positive: "checkmark.circle"
        case .busy: "clock"
        case .caution: "exclamationmark.triangle"
        case .critical: "xmark.octagon"
        }
    }
}
