// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

/// Why an enrollment invitation (QR payload or typed code) was refused.
public struct InvitationLinkError: CodedError, Hashable {
    /// What is wrong (an open set).
    public struct Code: ErrorCode {
        /// The code's name.
        public let rawValue: String
        /// Creates a code.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The text is not a `vettid://enroll?…` link.
        public static let notAnInvitation = Code(rawValue: "not_an_invitation")
        /// The link has no `code`, or more than one.
        public static let missingCode = Code(rawValue: "missing_code")
        /// The code is not `XXXX-XXXX` over `ABCDEFGHJKMNPQRSTUVWXYZ23456789`.
        public static let invalidCode = Code(rawValue: "invalid_code")
        /// The link has no `api`, or more than one.
        public static let missingAPIOrigin = Code(rawValue: "missing_api")
        /// `api` is not an `http`/`https` origin (scheme, host, optional port; no path, query, fragment or user).
        public static let invalidAPIOrigin = Code(rawValue: "invalid_api")
    }

    /// The error code.
    public var code: Code
    /// What is wrong, for logs and developers (never contains the code itself).
    public var message: String

    /// Creates an error.
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }
}
