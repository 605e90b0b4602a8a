// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

/// One reason a password is weak, with the text to show (worded like the server's `reasons`).
public struct PasswordWeakness: Sendable, Hashable, CustomStringConvertible {
    /// What kind of weakness (an open set).
    public struct Code: ErrorCode {
        /// The code's name.
        public let rawValue: String
        /// Creates a code.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The code of a broken `PasswordPolicy` rule (the four rules and their codes are one list).
        public init(rule: PasswordPolicy.Rule) { self.init(rawValue: rule.rawValue) }

        /// Fewer characters than the policy's minimum (12).
        public static let tooShort = Code(rawValue: "too_short")
        /// More bytes than the server accepts (1024).
        public static let tooLong = Code(rawValue: "too_long")
        /// Contains control characters, which the server refuses.
        public static let controlCharacters = Code(rawValue: "control_characters")
        /// The estimated strength is below the policy's minimum score.
        public static let tooGuessable = Code(rawValue: "too_guessable")
        /// Is, or is built from, a frequently leaked password.
        public static let commonPassword = Code(rawValue: "common_password")
        /// Contains a common word or name (also reversed or with l33t substitutions).
        public static let dictionaryWord = Code(rawValue: "dictionary_word")
        /// Contains part of the member's own details (email address, name).
        public static let userInput = Code(rawValue: "user_input")
        /// Contains repeated characters or blocks (`aaaa`, `abcabc`).
        public static let repeatedCharacters = Code(rawValue: "repeated_characters")
        /// Contains a sequence (`abcd`, `1234`, `9753`).
        public static let sequentialCharacters = Code(rawValue: "sequential_characters")
        /// Contains a keyboard walk (`qwerty`, `asdfgh`, `1qaz`).
        public static let keyboardPattern = Code(rawValue: "keyboard_pattern")
        /// Contains a year or a date.
        public static let dateOrYear = Code(rawValue: "date_or_year")
        /// Uses a single kind of character (only letters, only digits, …).
        public static let singleCharacterKind = Code(rawValue: "single_character_kind")
    }

    /// The kind of weakness.
    public let code: Code
    /// What to show under the password field.
    public let message: String

    /// Creates a weakness.
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
