// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
import VettIDClient
import VettIDCore

@testable import VettIDServer

/// The SDK's pure-Swift `PasswordStrengthMeter` against the server's policy (libzxcvbn), on one corpus: the meter
/// must never accept a password the server refuses (it is guidance that errs on the weak side), and the two must
/// agree on most of the corpus. docs/sdk.md documents the measured agreement.
@Suite struct PasswordMeterAgreementTests {
    static let corpus: [String] = [
        // Common, short, keyboard, repeated, sequential, dated.
        "password", "password1234", "Password1234", "P@ssw0rd2024!", "qwertyuiopas", "qwertyuiop123", "1qaz2wsx3edc",
        "aaaaaaaaaaaa", "abcabcabcabc", "abcdefghijkl", "123456789012", "111111111111", "letmein12345", "iloveyou2024",
        "monkey123456", "dragon123456", "football2023", "baseball1990", "welcome12345", "sunshine2020", "princess1234",
        "admin1234567", "Summer2024!!", "Winter2025!!", "zaq12wsxcde3", "asdfghjkl123", "01/01/1990ab",
        "trustno1trustno1", "michael19851985", "jennifer2000", "superman1234", "batman123456",
        // Names and words with decorations.
        "Jessica19921992", "Charlie!2023", "Basketball12", "Chocolate123", "Butterfly2022", "Elephant!234",
        // Long uncommon passphrases and random strings the server accepts.
        "correct-Horse-battery-91", "vivid-Otter-parsley-42", "tangerine gravel obsidian lantern",
        "Xq7#vLp2$Rk9!mWz", "r8V!q2#Lm9@zT4&w", "fjord-MAPLE-quiver-88-tundra", "blue kettle on a wet Tuesday",
        "7hG$2kLq9!xPz#3v", "Paper+Glacier+Orbit+73", "mq8vz3kd0xw7pt2r", "night_owl_spruce_4410",
        "Zebra.Cactus.Violin.19", "umbrella-nebula-cobalt", "kP9#xR2!vL7@qM4$",
    ]

    @Test func theMeterNeverAcceptsWhatTheServerRefusesAndMostlyAgrees() {
        let meter = PasswordStrengthMeter()
        let policy = PasswordPolicy()
        var agreements = 0
        var lenient: [String] = []
        for password in Self.corpus {
            let meterAccepts = meter.evaluate(password).isAcceptable
            let serverAccepts = if case .success = policy.check(password) { true } else { false }
            if meterAccepts == serverAccepts { agreements += 1 }
            if meterAccepts && !serverAccepts { lenient.append(password) }
        }
        #expect(lenient.isEmpty, "the meter accepted passwords the server refuses: \(lenient)")
        let agreement = Double(agreements) / Double(Self.corpus.count)
        #expect(agreement >= 0.8, "agreement \(agreements)/\(Self.corpus.count)")
        print("password meter agreement with the server: \(agreements)/\(Self.corpus.count)")
    }

    @Test func bothRefuseTheSameObviousPasswordsAndAcceptTheDemoOnes() {
        let meter = PasswordStrengthMeter()
        let policy = PasswordPolicy()
        for weak in ["password1234", "aaaaaaaaaaaa", "qwertyuiopas", "123456789012"] {
            #expect(!meter.evaluate(weak).isAcceptable, "\(weak)")
            guard case .failure = policy.check(weak) else { Issue.record("the server accepted \(weak)"); continue }
        }
        for strong in ["correct-Horse-battery-91", "Xq7#vLp2$Rk9!mWz"] {
            #expect(meter.evaluate(strong).isAcceptable, "\(strong)")
            guard case .success = policy.check(strong) else { Issue.record("the server refused \(strong)"); continue }
        }
    }
}
