// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

/// The family of ``DeviceAttestationError``.
public enum DeviceAttestationErrorDomain: ErrorDomain {}

/// A failure of a ``DeviceAttester``.
public typealias DeviceAttestationError = DomainError<DeviceAttestationErrorDomain>

extension DeviceAttestationError.Code {
    /// The attestation key is gone or was never attested (App Attest `DCError.invalidKey`, code 3). The key
    /// has been reset; register a new one and try again once.
    public static let invalidKey = Self(rawValue: "invalid_key")
    /// No key has been attested yet: call `attestKey` (and register it) before asking for assertions.
    public static let keyNotAttested = Self(rawValue: "key_not_attested")
    /// App Attest is not supported here (`DCError.featureUnsupported`, code 1; simulators, old devices).
    public static let unsupported = Self(rawValue: "unsupported")
    /// The platform refused the input (`DCError.invalidInput`, code 2). Not a key problem.
    public static let invalidInput = Self(rawValue: "invalid_input")
    /// Apple's attestation service could not be reached (`DCError.serverUnavailable`, code 4); retry later.
    public static let serverUnavailable = Self(rawValue: "server_unavailable")
    /// The platform failed for an unknown reason (`DCError.unknownSystemFailure`, code 0). Not a key problem.
    public static let systemFailure = Self(rawValue: "system_failure")
    /// The server challenge or device key thumbprint is malformed.
    public static let invalidChallenge = Self(rawValue: "invalid_challenge")
    /// The attester's state could not be read or written.
    public static let storage = Self(rawValue: "storage")
}
