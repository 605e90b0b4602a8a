// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

// The error thrown by JWK and JWS parsing.

/// A JWK or JWS was refused.
public struct JOSEError: CodedError, Hashable {
    /// An open set of reasons.
    public struct Code: ErrorCode {
        /// The stable identifier of the reason.
        public let rawValue: String
        /// Wraps a raw identifier.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The text is not a well-formed compact JWS or JSON object as required.
        public static let malformed = Code(rawValue: "malformed")
        /// `kty` is not a supported key type.
        public static let unsupportedKeyType = Code(rawValue: "unsupported_key_type")
        /// `crv` is not a supported curve.
        public static let unsupportedCurve = Code(rawValue: "unsupported_curve")
        /// The JWK carries private key material (`d`, `p`, `q`, `dp`, `dq`, `qi`, `oth` or `k`).
        public static let privateKeyMember = Code(rawValue: "private_key_member")
        /// The coordinates are not a point on the curve, or have the wrong length.
        public static let invalidPoint = Code(rawValue: "invalid_point")
        /// A signature is not 64 bytes of raw r||s, or the key could not produce one.
        public static let invalidSignature = Code(rawValue: "invalid_signature")
    }

    /// Why it was refused.
    public let code: Code
    /// A human-readable detail; never contains key material.
    public let reason: String

    /// The same as ``reason``: what `CodedError` reads.
    public var message: String { reason }

    /// Creates an error.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }
}
