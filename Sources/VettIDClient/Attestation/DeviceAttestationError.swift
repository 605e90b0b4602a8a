// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

/// A failure of a ``DeviceAttester``.
public struct DeviceAttestationError: CodedError {
    /// What went wrong (an open set).
    public struct Code: ErrorCode {
        /// The code's name.
        public let rawValue: String
        /// Creates a code.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The attestation key is gone or was never attested (App Attest `DCError.invalidKey`, code 3). The key
        /// has been reset; register a new one and try again once.
        public static let invalidKey = Code(rawValue: "invalid_key")
        /// No key has been attested yet: call `attestKey` (and register it) before asking for assertions.
        public static let keyNotAttested = Code(rawValue: "key_not_attested")
        /// App Attest is not supported here (`DCError.featureUnsupported`, code 1; simulators, old devices).
        public static let unsupported = Code(rawValue: "unsupported")
        /// The platform refused the input (`DCError.invalidInput`, code 2). Not a key problem.
        public static let invalidInput = Code(rawValue: "invalid_input")
        /// Apple's attestation service could not be reached (`DCError.serverUnavailable`, code 4); retry later.
        public static let serverUnavailable = Code(rawValue: "server_unavailable")
        /// The platform failed for an unknown reason (`DCError.unknownSystemFailure`, code 0). Not a key problem.
        public static let systemFailure = Code(rawValue: "system_failure")
        /// The server challenge or device key thumbprint is malformed.
        public static let invalidChallenge = Code(rawValue: "invalid_challenge")
        /// The attester's state could not be read or written.
        public static let storage = Code(rawValue: "storage")
    }

    /// The error code.
    public var code: Code
    /// What happened; never contains challenges, key ids or client data hashes.
    public var message: String
    /// The error that caused this one, if any.
    public var underlying: (any Error)?

    /// Creates an error.
    public init(code: Code, message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }
}
