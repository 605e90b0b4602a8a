// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import VettIDCore

/// A member's optional first and last name, as registration takes them: trimmed, at most 100 code points, no
/// control characters; an empty or all-blank name is none.
public struct MemberName: Sendable, Hashable {
    /// The longest name, in Unicode code points (what the schema's `maxLength` counts).
    public static let maximumLength = 100

    public let first: String?
    public let last: String?

    /// No name.
    public init() {
        first = nil
        last = nil
    }

    /// Validates both parts.
    /// - Throws: ``APIFailure`` 400 `invalid_request` naming the part.
    public init(first: String?, last: String?) throws {
        self.first = try Self.validated(first, field: "first_name")
        self.last = try Self.validated(last, field: "last_name")
    }

    private static func validated(_ value: String?, field: String) throws -> String? {
        let trimmed = try BoundedText.validated(value, field: field, maximumLength: maximumLength)
        return trimmed?.isEmpty == false ? trimmed : nil
    }
}
