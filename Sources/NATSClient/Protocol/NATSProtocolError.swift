// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

/// A malformed or oversized frame from the server. The connection cannot continue after one.
public struct NATSProtocolError: CodedError, Hashable {
    /// What was wrong, as a stable string.
    public struct Code: ErrorCode {
        /// The stable name of the code.
        public let rawValue: String

        /// Creates a code from its stable name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// A control line longer than the configured maximum, or with no CRLF within it.
        public static let controlLineTooLong = Code(rawValue: "control_line_too_long")
        /// An operation name the client does not know.
        public static let unknownOperation = Code(rawValue: "unknown_operation")
        /// Wrong number or form of arguments.
        public static let invalidArguments = Code(rawValue: "invalid_arguments")
        /// A payload not followed by CRLF, or a length beyond the limit.
        public static let invalidPayload = Code(rawValue: "invalid_payload")
        /// A header block that does not start `NATS/1.0` or has a bad line.
        public static let invalidHeaders = Code(rawValue: "invalid_headers")
        /// INFO JSON that does not decode.
        public static let invalidInfo = Code(rawValue: "invalid_info")
    }

    /// What was wrong.
    public let code: Code
    /// Details (never payload bytes).
    public let message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
}
