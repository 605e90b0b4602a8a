// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// Finds the guessable patterns of a password (zxcvbn's matchers, simplified): ranked words (common passwords,
/// English words and names, the member's own inputs) plain, reversed and with l33t substitutions; keyboard
/// walks; sequences; repeats; years and dates.
struct PasswordMatchers: Sendable {
    let dictionaries: [(kind: PasswordMatch.Kind, ranks: [String: Int])]
    let referenceYear: Int
    let maximumWordLength: Int

    static let leet: [Unicode.Scalar: [Unicode.Scalar]] = [
        "4": ["a"], "@": ["a"], "8": ["b"], "(": ["c"], "{": ["c"], "[": ["c"], "<": ["c"], "3": ["e"],
        "6": ["g"], "9": ["g"], "1": ["i", "l"], "!": ["i"], "|": ["i", "l"], "0": ["o"], "$": ["s"],
        "5": ["s"], "7": ["t", "l"], "+": ["t"], "%": ["x"], "2": ["z"],
    ]

    func matches(_ original: [Unicode.Scalar], estimate: (ArraySlice<Unicode.Scalar>) -> Double) -> [PasswordMatch] {
        let lower = original.map(Self.lowercased)
        var result = dictionaryMatches(original: original, lower: lower)
        result += keyboardMatches(original)
        result += sequenceMatches(original)
        result += repeatMatches(lower, estimate: estimate)
        result += dateMatches(original)
        return result
    }

    static func lowercased(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        let mapped = scalar.properties.lowercaseMapping.unicodeScalars
        return mapped.count == 1 ? mapped.first! : scalar
    }

    static func isUpper(_ scalar: Unicode.Scalar) -> Bool { scalar.properties.isUppercase }
    static func isLower(_ scalar: Unicode.Scalar) -> Bool { scalar.properties.isLowercase }
    static func isDigit(_ scalar: Unicode.Scalar) -> Bool { scalar.value >= 0x30 && scalar.value <= 0x39 }
    static func isLetter(_ scalar: Unicode.Scalar) -> Bool { scalar.properties.isAlphabetic }

    // MARK: Dictionary

    private func dictionaryMatches(original: [Unicode.Scalar], lower: [Unicode.Scalar]) -> [PasswordMatch] {
        var result: [PasswordMatch] = []
        let n = lower.count
        let variants = leetVariants(lower)
        for i in 0..<n {
            for j in stride(from: i + 2, to: min(n, i + maximumWordLength), by: 1) {
                let word = String(String.UnicodeScalarView(lower[i...j]))
                let reversed = String(String.UnicodeScalarView(lower[i...j].reversed()))
                let caseFactor = Self.uppercaseVariations(original[i...j])
                for dictionary in dictionaries {
                    if let rank = dictionary.ranks[word] {
                        result.append(
                            PasswordMatch(
                                start: i, end: j, log10Guesses: log10(Double(rank) * caseFactor), kind: dictionary.kind)
                        )
                    }
                    if j - i + 1 >= 4, reversed != word, let rank = dictionary.ranks[reversed] {
                        result.append(
                            PasswordMatch(
                                start: i, end: j, log10Guesses: log10(Double(rank) * caseFactor * 2),
                                kind: dictionary.kind))
                    }
                    for variant in variants {
                        let slice = variant.scalars[i...j]
                        let substitutions = (i...j).filter { variant.substituted[$0] }.count
                        guard substitutions > 0, substitutions < j - i + 1 else { continue }
                        let token = String(String.UnicodeScalarView(slice))
                        if let rank = dictionary.ranks[token] {
                            let leetFactor = Double(substitutions + 1)
                            result.append(
                                PasswordMatch(
                                    start: i, end: j, log10Guesses: log10(Double(rank) * caseFactor * leetFactor),
                                    kind: dictionary.kind)
                            )
                        }
                    }
                }
            }
        }
        return result
    }

    /// At most two unmasked spellings: first and last candidate for each l33t character.
    private func leetVariants(_ lower: [Unicode.Scalar]) -> [(scalars: [Unicode.Scalar], substituted: [Bool])] {
        guard lower.contains(where: { Self.leet[$0] != nil }) else { return [] }
        let substituted = lower.map { Self.leet[$0] != nil }
        let first = lower.map { Self.leet[$0]?.first ?? $0 }
        let last = lower.map { Self.leet[$0]?.last ?? $0 }
        return first == last ? [(first, substituted)] : [(first, substituted), (last, substituted)]
    }

    /// zxcvbn's capitalisation factor: 1 for lower case, 2 for a capital first or last letter or all capitals,
    /// otherwise the number of ways to place the capitals.
    static func uppercaseVariations(_ token: ArraySlice<Unicode.Scalar>) -> Double {
        let upper = token.filter(isUpper).count
        let lower = token.filter(isLower).count
        guard upper > 0 else { return 1 }
        if lower == 0 { return 2 }
        if upper == 1, let first = token.first, isUpper(first) { return 2 }
        if upper == 1, let last = token.last, isUpper(last) { return 2 }
        var sum = 0.0
        for k in 1...min(upper, lower) { sum += PasswordMath.binomial(upper + lower, k) }
        return max(sum, 1)
    }

    // MARK: Keyboard

    private func keyboardMatches(_ scalars: [Unicode.Scalar]) -> [PasswordMatch] {
        var result: [PasswordMatch] = []
        let n = scalars.count
        for i in 0..<n {
            var j = i
            var turns = 0
            var lastDirection: Int?
            while j + 1 < n, let direction = PasswordKeyboard.direction(from: scalars[j], to: scalars[j + 1]) {
                if direction != lastDirection { turns += 1 }
                lastDirection = direction
                j += 1
            }
            guard j - i + 1 >= 3 else { continue }
            let token = scalars[i...j]
            let shifted = token.filter { PasswordKeyboard.keys[$0]?.shifted == true }.count
            result.append(
                PasswordMatch(
                    start: i, end: j,
                    log10Guesses: Self.keyboardLog10Guesses(length: j - i + 1, turns: turns, shifted: shifted),
                    kind: .keyboard))
        }
        return result
    }

    static func keyboardLog10Guesses(length: Int, turns: Int, shifted: Int) -> Double {
        var guesses = 0.0
        for i in 2...max(2, length) {
            for j in 1...max(1, min(turns, i - 1)) {
                guesses +=
                    PasswordMath.binomial(i - 1, j - 1) * PasswordKeyboard.startingPositions
                    * pow(PasswordKeyboard.averageDegree, Double(j))
            }
        }
        let unshifted = length - shifted
        if shifted > 0 {
            if unshifted == 0 {
                guesses *= 2
            } else {
                var variations = 0.0
                for k in 1...min(shifted, unshifted) { variations += PasswordMath.binomial(shifted + unshifted, k) }
                guesses *= variations
            }
        }
        return log10(max(guesses, 1))
    }

    // MARK: Sequences

    private func sequenceMatches(_ scalars: [Unicode.Scalar]) -> [PasswordMatch] {
        var result: [PasswordMatch] = []
        let n = scalars.count
        guard n >= 3 else { return result }
        var i = 0
        while i < n - 2 {
            let delta = Int(scalars[i + 1].value) - Int(scalars[i].value)
            guard delta != 0, abs(delta) <= 5, Self.sameClass(scalars[i], scalars[i + 1]) else {
                i += 1
                continue
            }
            var j = i + 1
            while j + 1 < n, Int(scalars[j + 1].value) - Int(scalars[j].value) == delta,
                Self.sameClass(scalars[j], scalars[j + 1])
            {
                j += 1
            }
            if j - i + 1 >= 3 {
                let first = scalars[i]
                var base: Double
                if "aAzZ019".unicodeScalars.contains(first) {
                    base = 4
                } else if Self.isDigit(first) {
                    base = 10
                } else {
                    base = 26
                }
                if delta < 0 { base *= 2 }
                result.append(
                    PasswordMatch(start: i, end: j, log10Guesses: log10(base * Double(j - i + 1)), kind: .sequence))
            }
            i = j
        }
        return result
    }

    private static func sameClass(_ a: Unicode.Scalar, _ b: Unicode.Scalar) -> Bool {
        (isDigit(a) && isDigit(b)) || (a.isASCII && b.isASCII && isLower(a) && isLower(b))
            || (a.isASCII && b.isASCII && isUpper(a) && isUpper(b))
    }

    // MARK: Repeats

    private func repeatMatches(_ lower: [Unicode.Scalar], estimate: (ArraySlice<Unicode.Scalar>) -> Double)
        -> [PasswordMatch]
    {
        var result: [PasswordMatch] = []
        let n = lower.count
        var i = 0
        while i < n {
            var best: (base: Int, count: Int)?
            for base in 1...max(1, (n - i) / 2) where i + 2 * base <= n {
                var count = 1
                while i + (count + 1) * base <= n,
                    lower[(i + count * base)..<(i + (count + 1) * base)] == lower[i..<(i + base)]
                {
                    count += 1
                }
                let enough = base == 1 ? count >= 3 : count >= 2
                if enough, count * base > (best.map { $0.base * $0.count } ?? 0) { best = (base, count) }
            }
            guard let best else {
                i += 1
                continue
            }
            let end = i + best.base * best.count - 1
            let baseLog = estimate(lower[i..<(i + best.base)])
            result.append(
                PasswordMatch(start: i, end: end, log10Guesses: baseLog + log10(Double(best.count)), kind: .repeated))
            i += 1
        }
        return result
    }

    // MARK: Years and dates

    private func dateMatches(_ scalars: [Unicode.Scalar]) -> [PasswordMatch] {
        var result: [PasswordMatch] = []
        let n = scalars.count
        let digits = scalars.map { Self.isDigit($0) ? Int($0.value - 0x30) : -1 }
        func number(_ start: Int, _ length: Int) -> Int? {
            guard start + length <= n else { return nil }
            var value = 0
            for index in start..<(start + length) {
                guard digits[index] >= 0 else { return nil }
                value = value * 10 + digits[index]
            }
            return value
        }
        func yearSpace(_ year: Int) -> Double { Double(max(abs(year - referenceYear), 20)) }
        for i in 0..<n {
            if let year = number(i, 4), (1900...2050).contains(year) {
                result.append(PasswordMatch(start: i, end: i + 3, log10Guesses: log10(yearSpace(year)), kind: .date))
            }
            for length in [6, 8] {
                guard number(i, length) != nil else { continue }
                let splits: [(day: Int, month: Int, year: Int)] =
                    length == 8
                    ? [
                        (number(i + 6, 2)!, number(i + 4, 2)!, number(i, 4)!),
                        (number(i, 2)!, number(i + 2, 2)!, number(i + 4, 4)!),
                        (number(i + 2, 2)!, number(i, 2)!, number(i + 4, 4)!),
                    ]
                    : [
                        (number(i + 4, 2)!, number(i + 2, 2)!, Self.fullYear(number(i, 2)!)),
                        (number(i, 2)!, number(i + 2, 2)!, Self.fullYear(number(i + 4, 2)!)),
                        (number(i + 2, 2)!, number(i, 2)!, Self.fullYear(number(i + 4, 2)!)),
                    ]
                if let date = splits.first(where: {
                    (1...31).contains($0.day) && (1...12).contains($0.month) && (1900...2050).contains($0.year)
                }) {
                    result.append(
                        PasswordMatch(
                            start: i, end: i + length - 1, log10Guesses: log10(365 * yearSpace(date.year)), kind: .date)
                    )
                }
            }
        }
        return result
    }

    private static func fullYear(_ twoDigits: Int) -> Int {
        twoDigits > 50 ? 1900 + twoDigits : 2000 + twoDigits
    }
}
