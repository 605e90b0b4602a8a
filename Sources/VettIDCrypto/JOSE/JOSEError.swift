// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

// The error thrown by JWK and JWS parsing.

/// The family of ``JOSEError``.
public enum JOSEErrorDomain: ErrorDomain {}

/// A JWK or JWS was refused.
public typealias JOSEError = DomainError<JOSEErrorDomain>

extension JOSEError.Code {
    /// The text is not a well-formed compact JWS or JSON object as required.
    public static let malformed = Self(rawValue: "malformed")
    /// `kty` is not a supported key type.
    public static let unsupportedKeyType = Self(rawValue: "unsupported_key_type")
    /// `crv` is not a supported curve.
    public static let unsupportedCurve = Self(rawValue: "unsupported_curve")
    /// The JWK carries private key material (`d`, `p`, `q`, `dp`, `dq`, `qi`, `oth` or `k`).
    public static let privateKeyMember = Self(rawValue: "private_key_member")
    /// The coordinates are not a point on the curve, or have the wrong length.
    public static let invalidPoint = Self(rawValue: "invalid_point")
    /// A signature is not 64 bytes of raw r||s, or the key could not produce one.
    public static let invalidSignature = Self(rawValue: "invalid_signature")
}

extension JOSEError {
    /// The same as `message` (the name this error gave it first).
    public var reason: String { message }
}
