// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// Estimates how many guesses a password needs: zxcvbn's search for the most guessable sequence of patterns
/// (the product of the parts' guesses minimised over non-overlapping matches covering the password), in log10.
/// Unlike zxcvbn it adds no `l!` or `10000^(l-1)` for the number of parts, which would rate a password of three
/// cheap parts (`P@ssw0rd12345!`) at 10^8 at least.
///
/// Parts no pattern explains are brute-forced at 10 guesses per character, like zxcvbn, except letters inside a
/// word-like run (4+ letters with vowels and no long consonant cluster), which count 3 per letter: the SDK's word
/// lists are small, and such a run may be a word the server's dictionary knows. This errs on the weak side.
struct PasswordGuessEstimator: Sendable {
    /// Longest prefix analysed with patterns; the rest adds brute-force guesses.
    static let analysedLength = 64
    static let wordLikeLetterLog10 = log10(3.0)

    let matchers: PasswordMatchers

    struct Estimate {
        var log10Guesses: Double
        var sequence: [PasswordMatch]
    }

    func estimate(_ scalars: [Unicode.Scalar]) -> Estimate {
        estimate(scalars[...], depth: 0)
    }

    private func estimate(_ input: ArraySlice<Unicode.Scalar>, depth: Int) -> Estimate {
        let all = Array(input)
        guard !all.isEmpty else { return Estimate(log10Guesses: 0, sequence: []) }
        let scalars = Array(all.prefix(Self.analysedLength))
        let tail = Array(all.dropFirst(Self.analysedLength))
        let n = scalars.count
        let bruteforce = Self.bruteforceFactors(scalars)

        var matches: [PasswordMatch] = []
        if depth < 2 {
            matches = matchers.matches(scalars) { base in
                self.estimate(base, depth: depth + 1).log10Guesses
            }
        }
        var byEnd = [[PasswordMatch]](repeating: [], count: n)
        for var match in matches {
            // A part of the password is never cheaper than zxcvbn's minimum for a sub-match.
            if match.length < n { match.log10Guesses = max(match.log10Guesses, log10(match.length == 1 ? 10.0 : 50.0)) }
            byEnd[match.end].append(match)
        }
        var prefix = [0.0]
        for factor in bruteforce { prefix.append(prefix.last! + factor) }
        for end in 0..<n {
            for start in 0...end {
                let raw = prefix[end + 1] - prefix[start]
                let floor = log10(end == start ? 11.0 : 51.0)
                byEnd[end].append(
                    PasswordMatch(start: start, end: end, log10Guesses: max(raw, floor), kind: .bruteforce))
            }
        }

        // optimal[k][l]: best (log10 g, log10 Π) for the prefix ending at k with l matches, and its last match.
        struct Entry {
            var log10G: Double
            var log10Product: Double
            var match: PasswordMatch
        }
        var optimal = [[Int: Entry]](repeating: [:], count: n)
        for end in 0..<n {
            for match in byEnd[end] {
                let previous: [(Int, Double)] =
                    match.start == 0 ? [(0, 0)] : optimal[match.start - 1].map { ($0.key, $0.value.log10Product) }
                for (count, product) in previous {
                    let l = count + 1
                    let log10Product = product + match.log10Guesses
                    // zxcvbn adds l! and 10000^(l-1) here; libzxcvbn (the server's) sums the parts' entropies, so
                    // the meter uses the plain product: a password of several cheap parts stays cheap.
                    let log10G = log10Product
                    if let existing = optimal[end][l], existing.log10G <= log10G { continue }
                    optimal[end][l] = Entry(log10G: log10G, log10Product: log10Product, match: match)
                }
            }
        }
        guard let best = optimal[n - 1].min(by: { $0.value.log10G < $1.value.log10G }) else {
            return Estimate(log10Guesses: prefix[n], sequence: [])
        }
        var sequence: [PasswordMatch] = []
        var position = n - 1
        var count = best.key
        while position >= 0, count > 0, let entry = optimal[position][count] {
            sequence.insert(entry.match, at: 0)
            position = entry.match.start - 1
            count -= 1
        }
        let tailLog = Self.bruteforceFactors(tail).reduce(0, +)
        return Estimate(log10Guesses: best.value.log10G + tailLog, sequence: sequence)
    }

    /// log10 of the brute-force guesses per character (see the type's documentation).
    static func bruteforceFactors(_ scalars: [Unicode.Scalar]) -> [Double] {
        var factors = [Double](repeating: 1, count: scalars.count)
        var index = 0
        while index < scalars.count {
            guard PasswordMatchers.isLetter(scalars[index]) else {
                index += 1
                continue
            }
            var end = index
            while end + 1 < scalars.count, PasswordMatchers.isLetter(scalars[end + 1]) { end += 1 }
            if isWordLike(scalars[index...end]) {
                for position in index...end { factors[position] = wordLikeLetterLog10 }
            }
            index = end + 1
        }
        return factors
    }

    /// Four or more letters, at least a fifth of them vowels, no more than four consonants in a row.
    static func isWordLike(_ run: ArraySlice<Unicode.Scalar>) -> Bool {
        guard run.count >= 4 else { return false }
        let vowels = Set("aeiouyAEIOUY".unicodeScalars)
        var vowelCount = 0
        var cluster = 0
        var longestCluster = 0
        for scalar in run {
            if vowels.contains(scalar) {
                vowelCount += 1
                cluster = 0
            } else {
                cluster += 1
                longestCluster = max(longestCluster, cluster)
            }
        }
        return vowelCount * 5 >= run.count && longestCluster <= 4
    }
}
