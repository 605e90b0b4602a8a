// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import VettIDClient
public import VettIDCore
public import VettIDMessaging

/// A failure of the NATS layer (``NatsConnection``, ``OwnerSpaceClient``, ``MessageSpaceClient``). The code set is
/// open; `catch NatsConnectionError.Code.timeout` works through the `~=` overload.
public struct NatsConnectionError: CodedError {
    /// A stable code.
    public struct Code: ErrorCode {
        /// The stable name.
        public let rawValue: String
        /// Creates a code.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// `not_connected`: there is no usable connection right now (never connected, reconnecting after the
        /// token was refused, or disconnected).
        public static let notConnected = Code(rawValue: "not_connected")
        /// `connect_failed`: nats-server could not be reached or refused the credentials.
        public static let connectFailed = Code(rawValue: "connect_failed")
        /// `credentials_unavailable`: the `NatsCredentialProvider` gave no usable credentials.
        public static let credentialsUnavailable = Code(rawValue: "credentials_unavailable")
        /// `publish_failed`: the message was not accepted (invalid subject, too large, buffer full).
        public static let publishFailed = Code(rawValue: "publish_failed")
        /// `subscribe_failed`: the subscription was not accepted (invalid subject).
        public static let subscribeFailed = Code(rawValue: "subscribe_failed")
        /// `timeout`: no answer in time.
        public static let timeout = Code(rawValue: "timeout")
        /// `no_responders`: nobody listens on the request subject (no vault is running).
        public static let noResponders = Code(rawValue: "no_responders")
        /// `invalid_response`: the answer is not a vault response, or answers another request.
        public static let invalidResponse = Code(rawValue: "invalid_response")
        /// `vault_error`: the vault answered with an error; ``NatsConnectionError/vaultError`` has its code.
        public static let vaultError = Code(rawValue: "vault_error")
        /// `invalid_subject`: a topic is not a plain subject token sequence.
        public static let invalidSubject = Code(rawValue: "invalid_subject")
    }

    /// The code.
    public var code: Code
    /// What went wrong; never contains credentials.
    public var message: String
    /// The vault's error, for ``Code/vaultError``.
    public var vaultError: VaultMessageError?
    /// The error that caused this one (a `NATSError`, a provider error), if any.
    public var underlying: (any Error)?

    /// Creates an error.
    public init(_ code: Code, _ message: String, vaultError: VaultMessageError? = nil, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.vaultError = vaultError
        self.underlying = underlying
    }
}
