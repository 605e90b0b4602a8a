// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Testing

@testable import VettIDClient

@Suite("PasswordStrengthMeter")
struct PasswordStrengthMeterTests {
    let meter = PasswordStrengthMeter()

    @Test(
        "refuses well-known weak passwords with a reason naming the pattern",
        arguments: [
            ("password123456", PasswordWeakness.Code.commonPassword),
            ("aaaaaaaaaaaa", .repeatedCharacters),
            ("qwertyuiopas", .commonPassword),
            ("wertyuiop[]\\", .keyboardPattern),
            ("abcdefghijklmnop", .sequentialCharacters),
            ("P@ssw0rd12345!", .commonPassword),
            ("iloveyou2024!!", .commonPassword),
            ("1qaz2wsx3edc4rfv", .keyboardPattern),
            ("sunshinesunshine", .repeatedCharacters),
            ("michael19850412", .dateOrYear),
            ("drowssapdrowssap", .repeatedCharacters),
        ])
    func refusesWeak(password: String, expected: PasswordWeakness.Code) {
        let strength = meter.evaluate(password)
        #expect(!strength.isAcceptable, "\(password) scored \(strength.score) (10^\(strength.log10Guesses))")
        #expect(strength.score < 3)
        #expect(strength.reasons.map(\.code).contains(.tooGuessable))
        #expect(strength.reasons.map(\.code).contains(expected), "\(password): \(strength.reasons.map(\.code))")
    }

    @Test(
        "is conservative: long dictionary-like or predictable passwords are refused",
        arguments: [
            "Encyclopedia1!", "sunflowergarden", "Summer2024Summer", "123456789012", "correcthorse12",
            "Michael.Jordan23",
        ])
    func refusesPredictable(password: String) {
        #expect(!meter.evaluate(password).isAcceptable, "\(password)")
    }

    @Test(
        "accepts strong passwords",
        arguments: [
            "trombone-quietly-vanilla-37", "Xk9#mQ2$vL7!pW", "v8$Kq!2mZr#Tx9Lw", "correct horse battery staple",
            "7fJ#p2Lq9!zR",
            "glacier-Nimbus-41-pocket",
        ])
    func acceptsStrong(password: String) {
        let strength = meter.evaluate(password)
        #expect(strength.isAcceptable, "\(password) scored \(strength.score): \(strength.messages)")
        #expect(strength.score >= 3)
        #expect(strength.reasons.isEmpty)
    }

    @Test("length is checked on its own: a strong but short password is refused as too short")
    func tooShort() {
        let strength = meter.evaluate("Xk9#mQ2$vL7")
        #expect(!strength.isAcceptable)
        #expect(strength.reasons.first?.code == .tooShort)
        #expect(strength.reasons.first?.message == "must be at least 12 characters long")
    }

    @Test("control characters and oversized passwords are refused like the server does")
    func serverRules() {
        #expect(meter.evaluate("Xk9#mQ2$vL7!\npW").reasons.map(\.code).contains(.controlCharacters))
        let huge = String(repeating: "Xk9#mQ2$vL7!pW-", count: 80)
        #expect(meter.evaluate(huge).reasons.map(\.code).contains(.tooLong))
    }

    @Test("the member's own details count as known words")
    func userInputs() {
        let password = "zephyrinelongbottom"
        let strength = meter.evaluate(password + "!", userInputs: ["zephyrine.longbottom@example.com"])
        #expect(!strength.isAcceptable)
        #expect(strength.reasons.map(\.code).contains(.userInput))
    }

    @Test("scores follow zxcvbn's guess thresholds")
    func scoreThresholds() {
        #expect(PasswordStrengthMeter.score(log10Guesses: 2.9) == 0)
        #expect(PasswordStrengthMeter.score(log10Guesses: 5.9) == 1)
        #expect(PasswordStrengthMeter.score(log10Guesses: 7.9) == 2)
        #expect(PasswordStrengthMeter.score(log10Guesses: 9.9) == 3)
        #expect(PasswordStrengthMeter.score(log10Guesses: 10) == 4)
        #expect(meter.evaluate("") == .empty)
        #expect(meter.evaluate("aaaaaaaaaaaa").score == 0)
    }

    @Test("a longer policy minimum is honoured")
    func customPolicy() {
        let strict = PasswordStrengthMeter(policy: .init(minimumLength: 16))
        #expect(!strict.evaluate("Xk9#mQ2$vL7!pW").isAcceptable)
        #expect(strict.evaluate("Xk9#mQ2$vL7!pW").reasons.first?.message == "must be at least 16 characters long")
    }
}
