// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

/// A configuration value that the SDK refuses.
public struct ConfigurationError: CodedError {
    /// What is wrong (an open set).
    public struct Code: ErrorCode {
        /// The code's name.
        public let rawValue: String
        /// Creates a code.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The base URL has no `http` or `https` scheme, or no host.
        public static let invalidBaseURL = Code(rawValue: "invalid_base_url")
    }

    /// The error code.
    public var code: Code
    /// What is wrong.
    public var message: String

    /// Creates an error.
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }
}
