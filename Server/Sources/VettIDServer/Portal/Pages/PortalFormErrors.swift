// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Mustache

/// A message shown next to one field of a form.
struct PortalFieldError: Sendable, Equatable {
    /// The fields the portal's forms can point at; the raw value is the name templates use (`{{errors.email}}`).
    enum Field: String, Sendable, CaseIterable {
        case email, password, firstName, lastName, label, expiresInMinutes
    }

    let field: Field
    let message: String
}

/// The field errors of a form: structured (field and message), read by templates as `{{errors.<field>}}`.
struct PortalFormErrors: Sendable, Equatable, MustacheParent {
    /// Every error, in the order the page found them; at most one per field.
    private(set) var all: [PortalFieldError] = []

    init() {}

    var isEmpty: Bool { all.isEmpty }

    /// The message for `field`, if it has one.
    subscript(field: PortalFieldError.Field) -> String? {
        get { all.first { $0.field == field }?.message }
        set {
            all.removeAll { $0.field == field }
            if let newValue { all.append(PortalFieldError(field: field, message: newValue)) }
        }
    }

    func child(named name: String) -> Any? {
        PortalFieldError.Field(rawValue: name).flatMap { self[$0] }
    }
}
