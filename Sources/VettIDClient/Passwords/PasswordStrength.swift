// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// The strength meter's verdict on one password.
public struct PasswordStrength: Sendable, Hashable {
    /// 0 (too guessable) … 4 (very unguessable), on zxcvbn's thresholds of 10^3, 10^6, 10^8 and 10^10 guesses.
    public let score: Int
    /// log10 of the estimated number of guesses.
    public let log10Guesses: Double
    /// Whether the password meets the policy (length, bytes, no control characters, score) by this estimate.
    public let isAcceptable: Bool
    /// Why it is not acceptable, most important first; empty when ``isAcceptable``.
    public let reasons: [PasswordWeakness]

    /// Creates a verdict.
    public init(score: Int, log10Guesses: Double, isAcceptable: Bool, reasons: [PasswordWeakness]) {
        self.score = score
        self.log10Guesses = log10Guesses
        self.isAcceptable = isAcceptable
        self.reasons = reasons
    }

    /// The reasons' messages.
    public var messages: [String] { reasons.map(\.message) }

    /// The verdict for an empty field: score 0, not acceptable, no reasons to nag with yet.
    public static let empty = PasswordStrength(score: 0, log10Guesses: 0, isAcceptable: false, reasons: [])
}
