// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// A configuration value that the SDK refuses.
public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    /// What is wrong (an open set).
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's name.
        public let rawValue: String
        /// Creates a code.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code's name.
        public var description: String { rawValue }

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

    /// The code and message.
    public var description: String { "ConfigurationError(\(code.rawValue)): \(message)" }
}
