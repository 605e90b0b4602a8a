// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

/// The family of ``NATSProtocolError``.
public enum NATSProtocolErrorDomain: ErrorDomain {}

/// A malformed or oversized frame from the server. The connection cannot continue after one.
public typealias NATSProtocolError = DomainError<NATSProtocolErrorDomain>

extension NATSProtocolError.Code {
    /// A control line longer than the configured maximum, or with no CRLF within it.
    public static let controlLineTooLong = Self(rawValue: "control_line_too_long")
    /// An operation name the client does not know.
    public static let unknownOperation = Self(rawValue: "unknown_operation")
    /// Wrong number or form of arguments.
    public static let invalidArguments = Self(rawValue: "invalid_arguments")
    /// A payload not followed by CRLF, or a length beyond the limit.
    public static let invalidPayload = Self(rawValue: "invalid_payload")
    /// A header block that does not start `NATS/1.0` or has a bad line.
    public static let invalidHeaders = Self(rawValue: "invalid_headers")
    /// INFO JSON that does not decode.
    public static let invalidInfo = Self(rawValue: "invalid_info")
}
