// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

// The error thrown when a DPoP proof is refused or cannot be built.

/// The family of ``DPoPError``.
public enum DPoPErrorDomain: ErrorDomain {}

/// A DPoP proof was refused (by `DPoPVerifier` (VettIDVerification)) or could not be built (by ``DPoPProofBuilder``).
///
/// Every check has its own `Code`; `oauthError` maps it to the value a server puts in its
/// `error` response (RFC 9449 §7.1, §8, §9).
public typealias DPoPError = DomainError<DPoPErrorDomain>

extension DPoPError.Code {
    /// The request has no `DPoP` header.
    public static let missingProof = Self(rawValue: "missing_proof")
    /// The request has more than one `DPoP` header.
    public static let multipleProofs = Self(rawValue: "multiple_proofs")
    /// The proof is larger than `DPoPVerifier.Configuration.maxProofBytes`.
    public static let proofTooLarge = Self(rawValue: "proof_too_large")
    /// The proof is not a well-formed compact JWS with JSON object header and claims.
    public static let malformedProof = Self(rawValue: "malformed_proof")
    /// `typ` is not `dpop+jwt`.
    public static let invalidType = Self(rawValue: "invalid_typ")
    /// `alg` is not in the allowlist (for example `none` or `HS256`).
    public static let unsupportedAlgorithm = Self(rawValue: "unsupported_alg")
    /// The `jwk` key type or curve does not match `alg`.
    public static let keyAlgorithmMismatch = Self(rawValue: "key_alg_mismatch")
    /// `jwk` is missing or is not a valid public key.
    public static let invalidKey = Self(rawValue: "invalid_jwk")
    /// `jwk` carries private key members.
    public static let privateKeyInJWK = Self(rawValue: "private_key_in_jwk")
    /// The signature does not verify with `jwk`.
    public static let invalidSignature = Self(rawValue: "invalid_signature")
    /// A required claim (`jti`, `htm`, `htu`, `iat`) is absent.
    public static let missingClaim = Self(rawValue: "missing_claim")
    /// A claim has the wrong JSON type or is empty.
    public static let invalidClaim = Self(rawValue: "invalid_claim")
    /// `htm` differs from the request method.
    public static let methodMismatch = Self(rawValue: "htm_mismatch")
    /// `htu` is not a valid absolute URI, or the request URI is not.
    public static let invalidTargetURI = Self(rawValue: "invalid_htu")
    /// `htu` differs from the request URI after normalization.
    public static let targetURIMismatch = Self(rawValue: "htu_mismatch")
    /// `iat` is older than the accepted window.
    public static let issuedTooLongAgo = Self(rawValue: "iat_too_old")
    /// `iat` is further in the future than the accepted clock skew.
    public static let issuedInFuture = Self(rawValue: "iat_in_future")
    /// The server requires a nonce and the proof has none (maps to `use_dpop_nonce`).
    public static let nonceRequired = Self(rawValue: "nonce_required")
    /// The nonce was not issued by this server (maps to `use_dpop_nonce`).
    public static let nonceInvalid = Self(rawValue: "nonce_invalid")
    /// The nonce was issued by this server but has expired (maps to `use_dpop_nonce`).
    public static let nonceStale = Self(rawValue: "nonce_stale")
    /// `jti` is longer than `DPoPVerifier.Configuration.maxJTIBytes`.
    public static let jtiTooLong = Self(rawValue: "jti_too_long")
    /// A proof with this `jti` was already accepted for this URI.
    public static let replayedProof = Self(rawValue: "replayed_jti")
    /// An access token was presented and the proof has no `ath`.
    public static let accessTokenHashMissing = Self(rawValue: "ath_missing")
    /// `ath` is not the hash of the presented access token.
    public static let accessTokenHashMismatch = Self(rawValue: "ath_mismatch")
    /// The access token's `cnf.jkt` is not the thumbprint of the proof's key.
    public static let keyBindingMismatch = Self(rawValue: "jkt_mismatch")
    /// The builder was given an unusable method or URI, or the signer failed.
    public static let cannotBuildProof = Self(rawValue: "cannot_build_proof")
}

extension DPoPError {
    /// The same as `message` (the name this error gave it first).
    public var reason: String { message }

    /// The OAuth `error` value for this refusal: `use_dpop_nonce` for the nonce codes (the server
    /// answers with a fresh `DPoP-Nonce`), `invalid_token` when the token is not bound to the proof's key,
    /// `invalid_dpop_proof` otherwise.
    public var oauthError: String {
        switch code {
        case .nonceRequired, .nonceInvalid, .nonceStale: return "use_dpop_nonce"
        case .keyBindingMismatch: return "invalid_token"
        default: return "invalid_dpop_proof"
        }
    }

    /// Whether the client should retry with the server's fresh `DPoP-Nonce`.
    public var isNonceChallenge: Bool { oauthError == "use_dpop_nonce" }
}
