// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDClient

/// The password strength meter: a bar of five levels, a word and a tone.
public struct PasswordStrengthMeterContent: Sendable, Hashable {
    /// The meter's level, 0…4 (the strength score).
    public let level: Int
    /// The bar's fill (0…1).
    public let fraction: Double
    /// The word beside the bar ("Weak", "Strong", …).
    public let label: String
    /// The bar's tone: critical while the password would be refused.
    public let tone: Tone
    /// What VoiceOver reads.
    public let accessibilityValue: String

    /// The words of the five levels.
    public static let labels = ["Very weak", "Weak", "Fair", "Strong", "Very strong"]

    /// Computes the meter for a rating.
    public init(strength: PasswordStrength) {
        level = min(max(strength.score, 0), 4)
        fraction = Double(level + 1) / 5
        label = Self.labels[level]
        tone = !strength.isAcceptable ? (level >= 2 ? .caution : .critical) : .positive
        accessibilityValue =
            strength.isAcceptable ? "\(label), accepted" : "\(label), not accepted"
    }
}
