// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// A validated, normalised member email address: the identity key of an account.
///
/// Normalisation: surrounding white space trimmed, Unicode NFKC (so full-width and other compatibility
/// forms fold to one spelling), then lower-cased as a whole. Mail providers treat local parts
/// case-insensitively in practice, and two accounts that differ only by case would be a phishing aid.
public struct EmailAddress: Sendable, Hashable, CustomStringConvertible {
    /// The normalised address.
    public let value: String

    public var description: String { value }

    /// Why an address was refused.
    public struct Invalid: Error, Sendable, Equatable {
        public let reason: String
    }

    public init(_ raw: String) throws(Invalid) {
        let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        let normalised = trimmed.precomposedStringWithCompatibilityMapping.lowercased()
        guard !normalised.isEmpty else { throw Invalid(reason: "is empty") }
        guard normalised.utf8.count <= 254 else { throw Invalid(reason: "is longer than 254 bytes") }
        let parts = normalised.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw Invalid(reason: "must contain exactly one @") }
        let local = parts[0]
        let domain = parts[1]
        guard !local.isEmpty, local.utf8.count <= 64 else { throw Invalid(reason: "local part must be 1 to 64 bytes") }
        guard !local.hasPrefix("."), !local.hasSuffix("."), !local.contains("..") else {
            throw Invalid(reason: "local part has a misplaced dot")
        }
        for scalar in local.unicodeScalars where !Self.isAllowedInLocalPart(scalar) {
            throw Invalid(reason: "local part contains a character that is not allowed")
        }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2 else { throw Invalid(reason: "domain must have at least two labels") }
        for label in labels {
            guard !label.isEmpty, label.utf8.count <= 63 else {
                throw Invalid(reason: "domain has an empty or long label")
            }
            guard !label.hasPrefix("-"), !label.hasSuffix("-") else {
                throw Invalid(reason: "domain label starts or ends with a hyphen")
            }
            for scalar in label.unicodeScalars where !(scalar == "-" || Self.isLetterOrDigit(scalar)) {
                throw Invalid(reason: "domain contains a character that is not allowed")
            }
        }
        guard let last = labels.last, !last.allSatisfy({ $0.isNumber }) else {
            throw Invalid(reason: "top-level domain cannot be numeric")
        }
        self.value = normalised
    }

    /// Words from the address that a member is likely to reuse in a password.
    public var passwordHints: [String] {
        let parts = value.split(separator: "@")
        return parts.flatMap { $0.split(whereSeparator: { ".+_-".contains($0) }) }.map(String.init)
            .filter { $0.count >= 3 } + [value]
    }

    private static func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || scalar.properties.numericType == .decimal
    }

    private static func isAllowedInLocalPart(_ scalar: Unicode.Scalar) -> Bool {
        // RFC 5322 atext plus dots, and RFC 6531 non-ASCII letters and digits. No quoting, no white space.
        if isLetterOrDigit(scalar) { return true }
        return "!#$%&'*+-/=?^_`{|}~.".unicodeScalars.contains(scalar)
    }
}
