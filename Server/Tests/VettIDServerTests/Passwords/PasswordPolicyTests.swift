// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Testing
import VettIDCore

@testable import VettIDServer

@Suite struct PasswordPolicyTests {
    let policy = PasswordPolicy()

    @Test func acceptsALongUnguessablePassword() throws {
        let strength = try policy.check("vivid-Otter-parsley-42-glacier").get()
        #expect(strength.score >= 3)
    }

    @Test func refusesShortPasswordsWithReason() {
        guard case .failure(let violation) = policy.check("Zq9!xv") else {
            Issue.record("a 6-character password was accepted")
            return
        }
        #expect(violation.reasons.contains("must be at least 12 characters long"))
    }

    @Test(arguments: ["password1234", "qwertyuiop12", "aaaaaaaaaaaaaaaa", "abcdefghijklmnop", "123456789012"])
    func refusesGuessablePasswordsOfValidLength(password: String) {
        guard case .failure(let violation) = policy.check(password) else {
            Issue.record("\(password) was accepted")
            return
        }
        #expect(violation.score < 3)
        #expect(violation.reasons.contains { $0.hasPrefix("is too easy to guess") })
        #expect(violation.reasons.count >= 2, "a pattern reason accompanies the score")
    }

    @Test func emailPartsCountAgainstThePassword() throws {
        let email = try EmailAddress("margarethe.vonstrudel@example.org")
        guard case .failure(let violation) = policy.check("margarethevonstrudel", userInputs: email.passwordHints)
        else {
            Issue.record("a password made of the email was accepted")
            return
        }
        #expect(violation.reasons.contains("contains part of your email address"))
    }

    @Test func refusesControlCharactersAndHugeInputs() {
        guard case .failure(let control) = policy.check("vivid-Otter-\u{0}parsley-42") else {
            Issue.record("a NUL byte was accepted")
            return
        }
        #expect(control.reasons.contains("must not contain control characters"))
        guard case .failure(let huge) = policy.check(String(repeating: "xK9#", count: 300)) else {
            Issue.record("a 1200-byte password was accepted")
            return
        }
        #expect(huge.reasons.contains("must be at most 1024 bytes long"))
    }

    @Test(arguments: [
        (0.0, 0), (9.9, 0), (10.0, 1), (19.9, 1), (20.0, 2), (26.5, 2), (26.6, 3), (33.2, 3), (33.3, 4), (80, 4),
    ])
    func scoreFollowsZxcvbnThresholds(bits: Double, score: Int) {
        #expect(ZxcvbnEstimate.score(bits: bits) == score)
    }
}
