// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// A field of the sign-in form.
public enum SignInField: String, Sendable, Hashable, CaseIterable {
    /// The email field.
    case email
    /// The password field.
    case password
    /// The first name (registration only, optional).
    case firstName
    /// The last name (registration only, optional).
    case lastName
}
