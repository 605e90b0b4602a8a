// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// A guessable pattern found in a password, with its estimated number of guesses (log10).
struct PasswordMatch: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case commonPassword
        case dictionaryWord
        case userInput
        case keyboard
        case sequence
        case repeated
        case date
        case bruteforce
    }

    /// First scalar index.
    var start: Int
    /// Last scalar index (inclusive).
    var end: Int
    /// log10 of the guesses an attacker needs for this part.
    var log10Guesses: Double
    var kind: Kind

    var length: Int { end - start + 1 }
}

/// Small combinatorics for the guess estimates.
enum PasswordMath {
    static func binomial(_ n: Int, _ k: Int) -> Double {
        guard k >= 0, k <= n else { return 0 }
        var result = 1.0
        for i in 0..<min(k, n - k) { result = result * Double(n - i) / Double(i + 1) }
        return result
    }
}
