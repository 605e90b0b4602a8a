// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import VettIDClient

/// The manual entry of an invitation code (the scanner's fallback): what the member types, formatted as they type.
///
/// Letters are upper-cased, characters outside the invitation alphabet (`0`, `O`, `1`, `I`, `L`, punctuation,
/// spaces) are dropped, the dash is inserted after the fourth character and input stops at eight characters, so
/// the field always shows a prefix of `XXXX-XXXX`.
///
/// ```swift
/// InvitationCodeInput.format("k7qm3x")   // "K7QM-3X"
/// InvitationCodeInput.format("K7QM-3XPA-extra")  // "K7QM-3XPA"
/// ```
public enum InvitationCodeInput {
    /// The number of code characters (without the dash).
    public static let length = 8

    /// Formats typed or pasted text as a prefix of `XXXX-XXXX`.
    public static func format(_ text: String) -> String {
        let alphabet = Set(EnrollmentInvitationLink.codeAlphabet)
        let characters = text.uppercased().filter { alphabet.contains($0) }.prefix(length)
        var formatted = String(characters.prefix(4))
        if characters.count > 4 {
            formatted += "-" + String(characters.dropFirst(4))
        }
        return formatted
    }

    /// Whether formatted text is a whole code (`XXXX-XXXX`).
    public static func isComplete(_ formatted: String) -> Bool {
        format(formatted) == formatted && formatted.count == length + 1
    }
}
