// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import CZxcvbn

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// zxcvbn's verdict on a password: a 0–4 score and the patterns that weakened it.
public struct ZxcvbnEstimate: Sendable, Equatable {
    /// log2 of the estimated number of guesses.
    public let entropyBits: Double
    /// 0 (too guessable) … 4 (very unguessable), on zxcvbn's guess thresholds 10^3, 10^6, 10^8, 10^10.
    public let score: Int
    /// Human-readable reasons, one per weakening pattern found, in a stable order.
    public let reasons: [String]

    /// Estimates `password` with libzxcvbn; `userInputs` (e.g. the email's parts) count as known words.
    public static func estimate(_ password: String, userInputs: [String] = []) -> ZxcvbnEstimate {
        var info: UnsafeMutablePointer<ZxcMatch_t>?
        let inputs = userInputs.filter { !$0.isEmpty }.map { strdup($0) }
        defer { inputs.forEach { free($0) } }
        var array: [UnsafePointer<CChar>?] = inputs.map { UnsafePointer($0) } + [nil]
        let bits = array.withUnsafeMutableBufferPointer { buffer in
            ZxcvbnMatch(password, buffer.baseAddress, &info)
        }
        defer { ZxcvbnFreeInfo(info) }

        var kinds = Set<UInt32>()
        var node = info
        while let match = node {
            kinds.insert(match.pointee.Type.rawValue & ~UInt32(MULTIPLE_MATCH.rawValue))
            node = match.pointee.Next
        }
        return ZxcvbnEstimate(entropyBits: bits, score: score(bits: bits), reasons: reasons(for: kinds))
    }

    static func score(bits: Double) -> Int {
        // Guess thresholds of zxcvbn (10^3, 10^6, 10^8, 10^10) expressed in bits.
        let thresholds: [Double] = [3, 6, 8, 10].map { $0 * 3.321928094887362 }
        return thresholds.firstIndex { bits < $0 } ?? 4
    }

    private static func reasons(for kinds: Set<UInt32>) -> [String] {
        var reasons: [String] = []
        if kinds.contains(DICTIONARY_MATCH.rawValue) || kinds.contains(DICT_LEET_MATCH.rawValue) {
            reasons.append("contains a common word or password")
        }
        if kinds.contains(USER_MATCH.rawValue) || kinds.contains(USER_LEET_MATCH.rawValue) {
            reasons.append("contains part of your email address")
        }
        if kinds.contains(REPEATS_MATCH.rawValue) { reasons.append("contains repeated characters") }
        if kinds.contains(SEQUENCE_MATCH.rawValue) { reasons.append("contains a sequence such as abc or 123") }
        if kinds.contains(SPATIAL_MATCH.rawValue) { reasons.append("contains a keyboard pattern") }
        if kinds.contains(DATE_MATCH.rawValue) || kinds.contains(YEAR_MATCH.rawValue) {
            reasons.append("contains a date or year")
        }
        return reasons
    }
}
