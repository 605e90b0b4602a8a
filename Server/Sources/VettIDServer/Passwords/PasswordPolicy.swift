// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// The server's password rules: a minimum length and a minimum zxcvbn score.
public struct PasswordPolicy: Sendable {
    /// Fewest characters (Unicode scalars count as one each).
    public var minimumLength: Int
    /// Most bytes accepted; bounds hashing cost and memory per request.
    public var maximumBytes: Int
    /// Lowest acceptable zxcvbn score (0–4).
    public var minimumScore: Int

    public init(minimumLength: Int = 12, maximumBytes: Int = 1024, minimumScore: Int = 3) {
        self.minimumLength = minimumLength
        self.maximumBytes = maximumBytes
        self.minimumScore = minimumScore
    }

    /// Why a password was refused: every rule it breaks, and its score.
    public struct Violation: Error, Sendable, Equatable {
        public let reasons: [String]
        public let score: Int
    }

    /// Checks `password`; `userInputs` are words the member is likely to reuse (email parts).
    public func check(_ password: String, userInputs: [String] = []) -> Result<PasswordStrength, Violation> {
        var reasons: [String] = []
        let length = password.unicodeScalars.count
        if length < minimumLength { reasons.append("must be at least \(minimumLength) characters long") }
        if password.utf8.count > maximumBytes { reasons.append("must be at most \(maximumBytes) bytes long") }
        if password.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            reasons.append("must not contain control characters")
        }
        let strength = PasswordStrength.estimate(
            String(password.utf8.prefix(maximumBytes)) ?? password,
            userInputs: userInputs
        )
        if strength.score < minimumScore {
            reasons.append("is too easy to guess (strength \(strength.score) of 4, needs \(minimumScore))")
            reasons.append(contentsOf: strength.reasons)
        }
        return reasons.isEmpty ? .success(strength) : .failure(Violation(reasons: reasons, score: strength.score))
    }
}
