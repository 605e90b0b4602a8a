// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

/// A pure-Swift password strength meter for the UI, modelled on zxcvbn and deliberately conservative.
///
/// The server is authoritative: it applies the shared `PasswordPolicy` (at least 12 characters as Unicode scalars,
/// at most 1024 bytes, no control characters, a libzxcvbn score of at least 3) and answers `weak_password` with
/// `reasons` and `score` otherwise. This meter applies the same policy with its own estimate, built to err on the
/// weak side:
///
/// - length counts grapheme clusters (never more than the server's scalar count);
/// - its ranked lists (common passwords, English words and names, the member's own inputs) are small, so a run
///   of four or more word-like letters it cannot place counts 3 guesses per letter instead of 10;
/// - keyboard walks, sequences, repeats, years and dates are found as in zxcvbn.
///
/// So a password the meter accepts is meant to pass the server's check, while the meter may refuse passwords
/// the server would take (for example a single long uncommon word). Its ``PasswordWeakness`` messages use the
/// server's wording. Never rely on it instead of the server: a `weak_password` answer still wins.
///
/// ```swift
/// let strength = PasswordStrengthMeter().evaluate(password, userInputs: ["alice", "example.com"])
/// submitButton.isEnabled = strength.isAcceptable
/// hints = strength.messages
/// ```
public struct PasswordStrengthMeter: Sendable {
    /// The rules a password must meet: the product's shared policy.
    public typealias Policy = PasswordPolicy

    /// The rules applied.
    public let policy: Policy
    private let referenceYear: Int
    private static let commonPasswordRanks = ranks(PasswordWordLists.commonPasswords)
    private static let englishWordRanks = ranks(PasswordWordLists.englishWords)

    /// Creates a meter.
    /// - Parameters:
    ///   - policy: The rules (`PasswordPolicy.standard` unless given).
    ///   - referenceYear: The year recent years and dates are measured from.
    public init(policy: Policy = .standard, referenceYear: Int = 2026) {
        self.policy = policy
        self.referenceYear = referenceYear
    }

    /// Rates `password`.
    /// - Parameters:
    ///   - password: The password as typed.
    ///   - userInputs: Words the member is likely to reuse (email parts, name); matched like dictionary
    ///     words of the lowest rank.
    public func evaluate(_ password: String, userInputs: [String] = []) -> PasswordStrength {
        guard !password.isEmpty else { return .empty }
        let scalars = Array(password.unicodeScalars)
        let estimator = PasswordGuessEstimator(matchers: matchers(userInputs: userInputs))
        let estimate = estimator.estimate(scalars)
        let score = Self.score(log10Guesses: estimate.log10Guesses)

        // Grapheme clusters: never more than the server's scalar count, so what passes here passes there.
        let broken = policy.brokenRules(password, score: score, characterCount: password.count)
        var reasons = broken.map { PasswordWeakness(code: .init(rule: $0), message: policy.reason($0, score: score)) }
        if broken.contains(.minimumScore) {
            reasons += Self.patternReasons(estimate.sequence)
            if Self.usesOneKind(scalars) {
                reasons.append(.init(code: .singleCharacterKind, message: "uses only one kind of character"))
            }
        }
        return PasswordStrength(
            score: score, log10Guesses: estimate.log10Guesses, isAcceptable: reasons.isEmpty, reasons: reasons)
    }

    /// zxcvbn's score for a number of guesses.
    static func score(log10Guesses: Double) -> Int {
        [3.0, 6.0, 8.0, 10.0].firstIndex { log10Guesses < $0 } ?? 4
    }

    private func matchers(userInputs: [String]) -> PasswordMatchers {
        var inputRanks: [String: Int] = [:]
        for input in userInputs {
            let words =
                input.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init) + [input.lowercased()]
            for word in words where word.count >= 3 { inputRanks[word] = 1 }
        }
        return PasswordMatchers(
            dictionaries: [
                (.userInput, inputRanks),
                (.commonPassword, Self.commonPasswordRanks),
                (.dictionaryWord, Self.englishWordRanks),
            ],
            referenceYear: referenceYear,
            maximumWordLength: 24
        )
    }

    private static func ranks(_ words: [String]) -> [String: Int] {
        var ranks: [String: Int] = [:]
        for (index, word) in words.enumerated() where ranks[word] == nil { ranks[word] = index + 1 }
        return ranks
    }

    private static func patternReasons(_ sequence: [PasswordMatch]) -> [PasswordWeakness] {
        let kinds = Set(sequence.map(\.kind))
        var reasons: [PasswordWeakness] = []
        if kinds.contains(.commonPassword) {
            reasons.append(.init(code: .commonPassword, message: "is a commonly used password"))
        }
        if kinds.contains(.dictionaryWord) {
            reasons.append(.init(code: .dictionaryWord, message: "contains a common word or password"))
        }
        if kinds.contains(.userInput) {
            reasons.append(.init(code: .userInput, message: "contains part of your email address"))
        }
        if kinds.contains(.repeated) {
            reasons.append(.init(code: .repeatedCharacters, message: "contains repeated characters"))
        }
        if kinds.contains(.sequence) {
            reasons.append(.init(code: .sequentialCharacters, message: "contains a sequence such as abc or 123"))
        }
        if kinds.contains(.keyboard) {
            reasons.append(.init(code: .keyboardPattern, message: "contains a keyboard pattern"))
        }
        if kinds.contains(.date) { reasons.append(.init(code: .dateOrYear, message: "contains a date or year")) }
        return reasons
    }

    private static func usesOneKind(_ scalars: [Unicode.Scalar]) -> Bool {
        let kinds = Set(
            scalars.map { scalar -> Int in
                if PasswordMatchers.isDigit(scalar) { return 0 }
                if PasswordMatchers.isLetter(scalar) { return 1 }
                return 2
            })
        return kinds.count == 1
    }
}

extension PasswordPolicy {
    /// The server's policy, now the shared ``standard``.
    @available(*, deprecated, renamed: "standard")
    public static var server: PasswordPolicy { .standard }
}
