// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Testing
import VettIDCore

@Suite("Password policy")
struct PasswordPolicyTests {
    let policy = PasswordPolicy.standard

    @Test("the product's rules: 12 characters, 1,024 bytes, score 3")
    func standard() {
        #expect(policy == PasswordPolicy(minimumLength: 12, maximumBytes: 1024, minimumScore: 3))
    }

    @Test("each rule is broken on its own, at its boundary")
    func boundaries() {
        #expect(policy.brokenRules(String(repeating: "a", count: 12), score: 3) == [])
        #expect(policy.brokenRules(String(repeating: "a", count: 11), score: 3) == [.minimumLength])
        #expect(policy.brokenRules(String(repeating: "a", count: 1024), score: 4) == [])
        #expect(policy.brokenRules(String(repeating: "a", count: 1025), score: 4) == [.maximumBytes])
        #expect(policy.brokenRules("twelve chars\u{7F}", score: 4) == [.noControlCharacters])
        #expect(policy.brokenRules("tab\tinside-the-words", score: 4) == [.noControlCharacters])
        #expect(policy.brokenRules("long enough but weak", score: 2) == [.minimumScore])
        #expect(policy.brokenRules("short", score: 0) == [.minimumLength, .minimumScore])
    }

    @Test("length counts Unicode scalars unless the caller counts otherwise; bytes are UTF-8")
    func counting() {
        let flags = String(repeating: "🇨🇭", count: 6)  // 12 scalars, 6 graphemes, 48 bytes
        #expect(policy.brokenRules(flags, score: 4) == [])
        #expect(policy.brokenRules(flags, score: 4, characterCount: flags.count) == [.minimumLength])
        #expect(policy.brokenRules(String(repeating: "é", count: 513), score: 4) == [.maximumBytes])
    }

    @Test("the reasons are the server's wording, with the policy's numbers")
    func reasons() {
        #expect(policy.reason(.minimumLength, score: 1) == "must be at least 12 characters long")
        #expect(policy.reason(.maximumBytes, score: 1) == "must be at most 1024 bytes long")
        #expect(policy.reason(.noControlCharacters, score: 1) == "must not contain control characters")
        #expect(policy.reason(.minimumScore, score: 1) == "is too easy to guess (strength 1 of 4, needs 3)")
        let custom = PasswordPolicy(minimumLength: 16, maximumBytes: 64, minimumScore: 4)
        #expect(custom.reason(.minimumLength, score: 0) == "must be at least 16 characters long")
        #expect(custom.hint.hasPrefix("Use at least 16 characters."))
    }
}
