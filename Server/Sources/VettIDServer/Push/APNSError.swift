// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// Why the APNs provider could not be set up or could not send. Never contains a device token or the key.
public struct APNSError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, as a stable code.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The `.p8` key file is missing, unreadable or not a P-256 key.
        public static let keyUnreadable = Code(rawValue: "apns_key_unreadable")
        /// The configuration lacks a key id, team id or bundle id, or an endpoint URL is unusable.
        public static let misconfigured = Code(rawValue: "apns_misconfigured")
        /// The APNs endpoint answered over a protocol other than HTTP/2.
        public static let notHTTP2 = Code(rawValue: "apns_not_http2")
        /// APNs did not answer within ``APNSConfiguration/requestTimeout``.
        public static let timeout = Code(rawValue: "apns_timeout")
    }

    /// The code.
    public let code: Code
    /// A sentence for logs and operators.
    public let message: String

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }
}
