// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// The member password rules, defined once for the server (authoritative), the portal, the SDK's strength meter
/// and the screens that explain them.
///
/// A password must have at least ``minimumLength`` characters, at most ``maximumBytes`` UTF-8 bytes, no control
/// characters, and a zxcvbn strength score of at least ``minimumScore``. The server counts characters as Unicode
/// scalars; the SDK's meter counts grapheme clusters (never more), so what the meter accepts meets the length rule.
public struct PasswordPolicy: Sendable, Hashable {
    /// A rule a password can break.
    public enum Rule: String, Sendable, Hashable, CaseIterable {
        /// Fewer characters than ``PasswordPolicy/minimumLength``.
        case minimumLength = "too_short"
        /// More bytes than ``PasswordPolicy/maximumBytes``: bounds hashing cost and memory per request.
        case maximumBytes = "too_long"
        /// A control character (U+0000–U+001F, U+007F).
        case noControlCharacters = "control_characters"
        /// A strength score below ``PasswordPolicy/minimumScore``.
        case minimumScore = "too_guessable"
    }

    /// Fewest characters.
    public var minimumLength: Int
    /// Most UTF-8 bytes accepted.
    public var maximumBytes: Int
    /// Lowest acceptable zxcvbn score (0–4).
    public var minimumScore: Int

    /// Creates a policy; the defaults are the product's rules (``standard``).
    public init(minimumLength: Int = 12, maximumBytes: Int = 1024, minimumScore: Int = 3) {
        self.minimumLength = minimumLength
        self.maximumBytes = maximumBytes
        self.minimumScore = minimumScore
    }

    /// The product's rules: 12 characters, 1,024 bytes, score 3.
    public static let standard = PasswordPolicy()

    /// The rules `password` breaks, in the order of ``Rule``.
    /// - Parameters:
    ///   - password: The password as typed.
    ///   - score: Its strength score (0–4), from whichever estimator the caller runs.
    ///   - characterCount: Its length as the caller counts it (Unicode scalars unless given).
    public func brokenRules(_ password: String, score: Int, characterCount: Int? = nil) -> [Rule] {
        var broken: [Rule] = []
        if (characterCount ?? password.unicodeScalars.count) < minimumLength { broken.append(.minimumLength) }
        if password.utf8.count > maximumBytes { broken.append(.maximumBytes) }
        if password.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            broken.append(.noControlCharacters)
        }
        if score < minimumScore { broken.append(.minimumScore) }
        return broken
    }

    /// The text that explains a broken rule, worded to follow "The password …" (the server's `reasons`).
    public func reason(_ rule: Rule, score: Int) -> String {
        switch rule {
        case .minimumLength: "must be at least \(minimumLength) characters long"
        case .maximumBytes: "must be at most \(maximumBytes) bytes long"
        case .noControlCharacters: "must not contain control characters"
        case .minimumScore: "is too easy to guess (strength \(score) of 4, needs \(minimumScore))"
        }
    }

    /// The hint shown beside a new-password field.
    public var hint: String {
        "Use at least \(minimumLength) characters. Several unrelated words make a password that is strong "
            + "and easy to remember."
    }
}
