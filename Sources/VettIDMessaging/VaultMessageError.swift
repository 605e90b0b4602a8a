// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

// The typed error of the vault wire format.

/// Why a vault message or subject was refused. The code is sent back to the app in error responses.
public struct VaultMessageError: CodedError, Hashable {
    /// An open set of error codes (new ones can be added without breaking callers).
    public struct Code: ErrorCode {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Not JSON, not an object, or too deep.
        public static let malformedJSON = Code(rawValue: "malformed_message")
        /// A required member is missing or has the wrong type, or a member the type does not have is present.
        public static let missingField = Code(rawValue: "invalid_message")
        /// The `type` is not one this side understands.
        public static let unknownType = Code(rawValue: "unknown_message_type")
        /// The subject's type and the body's `type` differ.
        public static let typeMismatch = Code(rawValue: "type_mismatch")
        /// A subject or GUID is not valid.
        public static let invalidSubject = Code(rawValue: "invalid_subject")
        /// The execute request names a handler the vault does not have.
        public static let unknownHandler = Code(rawValue: "unknown_handler")
        /// The handler ran and failed.
        public static let handlerFailed = Code(rawValue: "handler_failed")
        /// The payload is larger than the vault accepts.
        public static let payloadTooLarge = Code(rawValue: "payload_too_large")
        /// The vault could not answer (its store failed, …).
        public static let unavailable = Code(rawValue: "vault_unavailable")
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
}
