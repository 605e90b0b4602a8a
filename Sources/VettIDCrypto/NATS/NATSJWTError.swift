// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

// Errors from encoding, decoding and verifying NATS JWTs and creds files.

/// The family of ``NATSJWTError``.
public enum NATSJWTErrorDomain: ErrorDomain {}

/// An error raised while encoding, decoding or verifying a NATS JWT or parsing a creds file.
///
/// Match on `code`; the set of codes is open and may grow.
public typealias NATSJWTError = DomainError<NATSJWTErrorDomain>

extension NATSJWTError.Code {
    /// The token does not have three base64url segments.
    public static let malformed = Self(rawValue: "malformed")
    /// The header is not `{"typ":"JWT","alg":"ed25519-nkey"}`.
    public static let unsupportedHeader = Self(rawValue: "unsupported_header")
    /// The payload is not the expected claims JSON.
    public static let invalidClaims = Self(rawValue: "invalid_claims")
    /// The claims `nats.type` is not the requested kind (user, account, operator).
    public static let wrongClaimType = Self(rawValue: "wrong_claim_type")
    /// The issuer is not an NKey of a type allowed to sign these claims.
    public static let invalidIssuer = Self(rawValue: "invalid_issuer")
    /// The Ed25519 signature does not verify with the issuer key.
    public static let invalidSignature = Self(rawValue: "invalid_signature")
    /// Signing failed (for example the signer holds only a public key).
    public static let signingFailed = Self(rawValue: "signing_failed")
    /// The creds text holds no JWT or no seed.
    public static let invalidCreds = Self(rawValue: "invalid_creds")
}
