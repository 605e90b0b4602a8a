// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import VettIDCore

/// A short free-text field as the API takes it (an invitation's label, a member's names): at most `maximumLength`
/// code points as sent (what JSON Schema's `maxLength` counts), trimmed, and no control characters.
enum BoundedText {
    /// The trimmed value, or `nil` for none.
    /// - Throws: ``APIFailure`` 400 `invalid_request` naming `field`.
    static func validated(_ value: String?, field: String, maximumLength: Int) throws(APIFailure) -> String? {
        guard let value else { return nil }
        guard value.unicodeScalars.count <= maximumLength else {
            throw APIFailure.invalidRequest("\(field) must be at most \(maximumLength) characters (code points)")
        }
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw APIFailure.invalidRequest("\(field) must not contain control characters")
        }
        return trimmed
    }
}
