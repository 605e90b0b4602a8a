// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

/// The family of ``InvitationLinkError``.
public enum InvitationLinkErrorDomain: ErrorDomain {}

/// Why an enrollment invitation (QR payload or typed code) was refused.
public typealias InvitationLinkError = DomainError<InvitationLinkErrorDomain>

extension InvitationLinkError.Code {
    /// The text is not a `vettid://enroll?…` link.
    public static let notAnInvitation = Self(rawValue: "not_an_invitation")
    /// The link has no `code`, or more than one.
    public static let missingCode = Self(rawValue: "missing_code")
    /// The code is not `XXXX-XXXX` over `ABCDEFGHJKMNPQRSTUVWXYZ23456789`.
    public static let invalidCode = Self(rawValue: "invalid_code")
    /// The link has no `api`, or more than one.
    public static let missingAPIOrigin = Self(rawValue: "missing_api")
    /// `api` is not an `http`/`https` origin (scheme, host, optional port; no path, query, fragment or user).
    public static let invalidAPIOrigin = Self(rawValue: "invalid_api")
}
