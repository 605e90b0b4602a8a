// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

// The server applies the shared policy (VettIDCore's `PasswordPolicy`) with libzxcvbn's estimate; it is the
// authority the SDK's meter and the portal's hints follow.
extension PasswordPolicy {
    /// Why a password was refused: every rule it breaks, and its score.
    public struct Violation: Error, Sendable, Equatable {
        /// The reasons, worded to follow "The password …", then the patterns that weakened it.
        public let reasons: [String]
        /// The zxcvbn score (0–4).
        public let score: Int
    }

    /// Checks `password`; `userInputs` are words the member is likely to reuse (email parts).
    public func check(_ password: String, userInputs: [String] = []) -> Result<ZxcvbnEstimate, Violation> {
        // The estimate reads at most `maximumBytes`: hashing cost and memory per request stay bounded.
        let strength = ZxcvbnEstimate.estimate(
            String(password.utf8.prefix(maximumBytes)) ?? password,
            userInputs: userInputs
        )
        let broken = brokenRules(password, score: strength.score)
        guard !broken.isEmpty else { return .success(strength) }
        var reasons = broken.map { reason($0, score: strength.score) }
        if broken.contains(.minimumScore) { reasons += strength.reasons }
        return .failure(Violation(reasons: reasons, score: strength.score))
    }
}
