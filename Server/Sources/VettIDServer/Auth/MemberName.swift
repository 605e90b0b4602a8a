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
        do {
            try self.init(checking: first, last)
        } catch {
            throw error.failure
        }
    }

    /// A part of a name.
    enum Part: Sendable, Equatable {
        case first, last
    }

    /// A part that was refused, and the API's failure for it.
    struct InvalidPart: Error, Sendable {
        /// Which part.
        let part: Part
        /// 400 `invalid_request` naming the part (`first_name` or `last_name`).
        let failure: APIFailure
    }

    /// Validates both parts, first then last, and says which was refused: for a form that shows the refusal next
    /// to its field.
    init(checking first: String?, _ last: String?) throws(InvalidPart) {
        do {
            self.first = try Self.validated(first, field: "first_name")
        } catch {
            throw InvalidPart(part: .first, failure: error)
        }
        do {
            self.last = try Self.validated(last, field: "last_name")
        } catch {
            throw InvalidPart(part: .last, failure: error)
        }
    }

    private static func validated(_ value: String?, field: String) throws(APIFailure) -> String? {
        let trimmed = try BoundedText.validated(value, field: field, maximumLength: maximumLength)
        return trimmed?.isEmpty == false ? trimmed : nil
    }
}
