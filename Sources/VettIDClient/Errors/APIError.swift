// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

/// An error answered by the VettID API, or raised by the SDK around a call.
///
/// Every failure of the API has the body `{"error": <code>, "error_description": <text>}`; the SDK turns it into
/// an `APIError` whose ``code`` is that stable code. The code set is open: new server codes arrive as unknown
/// ``Code`` values instead of breaking callers. Match codes with `catch`:
///
/// ```swift
/// do {
///     try await auth.login(email: email, password: password)
/// } catch APIError.invalidCredentials {
///     // show "wrong email or password"
/// }
/// ```
///
/// The description never contains secrets: it is the server's `error_description` (or an SDK text).
public struct APIError: Error, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// A stable, machine-readable error code (an open set): the wire codes of `openapi.yaml`'s error table
    /// (`APIErrorCode` in VettIDCore, generated from it) and the SDK's client-side codes (`APIErrorCode+Client.swift`).
    public typealias Code = APIErrorCode

    /// The error code.
    public var code: Code
    /// The HTTP status, or `nil` when no response arrived.
    public var status: Int?
    /// Human-readable text (the server's `error_description`); never contains secrets.
    public var description: String
    /// For `APIError.weakPassword`: why the password was refused.
    public var reasons: [String]
    /// For `APIError.weakPassword`: the strength score (0-4) the server computed.
    public var score: Int?
    /// For `APIError.rateLimited` (and 503): how long to wait before retrying, from `Retry-After`.
    public var retryAfter: Duration?
    /// The error that caused this one (a transport or decoding error), if any.
    public var underlying: (any Error)?

    /// Creates an error.
    public init(
        code: Code,
        status: Int? = nil,
        description: String,
        reasons: [String] = [],
        score: Int? = nil,
        retryAfter: Duration? = nil,
        underlying: (any Error)? = nil
    ) {
        self.code = code
        self.status = status
        self.description = description
        self.reasons = reasons
        self.score = score
        self.retryAfter = retryAfter
        self.underlying = underlying
    }

    /// The code, status and description; the underlying error is named by type only (it may hold a request).
    public var debugDescription: String {
        var text = "APIError(\(code.rawValue)"
        if let status { text += ", status \(status)" }
        text += "): \(description)"
        if !reasons.isEmpty { text += " [\(reasons.joined(separator: "; "))]" }
        if let underlying { text += " (underlying: \(type(of: underlying)))" }
        return text
    }
}

/// Matches an error against an `APIError.Code`, so that `catch APIError.invalidToken` works.
///
/// The error may be an ``APIError`` or an OpenAPI runtime error wrapping one.
public func ~= (pattern: APIError.Code, error: any Error) -> Bool {
    APIError.unwrap(error)?.code == pattern
}
