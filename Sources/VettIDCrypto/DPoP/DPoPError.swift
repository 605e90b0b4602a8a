// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

// The error thrown when a DPoP proof is refused or cannot be built.

/// A DPoP proof was refused (by `DPoPVerifier` (VettIDVerification)) or could not be built (by ``DPoPProofBuilder``).
///
/// Every check has its own ``Code``; ``oauthError`` maps it to the value a server puts in its
/// `error` response (RFC 9449 §7.1, §8, §9).
public struct DPoPError: CodedError, Hashable {
    /// An open set of reasons, one per check.
    public struct Code: ErrorCode {
        /// The stable identifier of the reason.
        public let rawValue: String
        /// Wraps a raw identifier.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The request has no `DPoP` header.
        public static let missingProof = Code(rawValue: "missing_proof")
        /// The request has more than one `DPoP` header.
        public static let multipleProofs = Code(rawValue: "multiple_proofs")
        /// The proof is larger than `DPoPVerifier.Configuration.maxProofBytes`.
        public static let proofTooLarge = Code(rawValue: "proof_too_large")
        /// The proof is not a well-formed compact JWS with JSON object header and claims.
        public static let malformedProof = Code(rawValue: "malformed_proof")
        /// `typ` is not `dpop+jwt`.
        public static let invalidType = Code(rawValue: "invalid_typ")
        /// `alg` is not in the allowlist (for example `none` or `HS256`).
        public static let unsupportedAlgorithm = Code(rawValue: "unsupported_alg")
        /// The `jwk` key type or curve does not match `alg`.
        public static let keyAlgorithmMismatch = Code(rawValue: "key_alg_mismatch")
        /// `jwk` is missing or is not a valid public key.
        public static let invalidKey = Code(rawValue: "invalid_jwk")
        /// `jwk` carries private key members.
        public static let privateKeyInJWK = Code(rawValue: "private_key_in_jwk")
        /// The signature does not verify with `jwk`.
        public static let invalidSignature = Code(rawValue: "invalid_signature")
        /// A required claim (`jti`, `htm`, `htu`, `iat`) is absent.
        public static let missingClaim = Code(rawValue: "missing_claim")
        /// A claim has the wrong JSON type or is empty.
        public static let invalidClaim = Code(rawValue: "invalid_claim")
        /// `htm` differs from the request method.
        public static let methodMismatch = Code(rawValue: "htm_mismatch")
        /// `htu` is not a valid absolute URI, or the request URI is not.
        public static let invalidTargetURI = Code(rawValue: "invalid_htu")
        /// `htu` differs from the request URI after normalization.
        public static let targetURIMismatch = Code(rawValue: "htu_mismatch")
        /// `iat` is older than the accepted window.
        public static let issuedTooLongAgo = Code(rawValue: "iat_too_old")
        /// `iat` is further in the future than the accepted clock skew.
        public static let issuedInFuture = Code(rawValue: "iat_in_future")
        /// The server requires a nonce and the proof has none (maps to `use_dpop_nonce`).
        public static let nonceRequired = Code(rawValue: "nonce_required")
        /// The nonce was not issued by this server (maps to `use_dpop_nonce`).
        public static let nonceInvalid = Code(rawValue: "nonce_invalid")
        /// The nonce was issued by this server but has expired (maps to `use_dpop_nonce`).
        public static let nonceStale = Code(rawValue: "nonce_stale")
        /// `jti` is longer than `DPoPVerifier.Configuration.maxJTIBytes`.
        public static let jtiTooLong = Code(rawValue: "jti_too_long")
        /// A proof with this `jti` was already accepted for this URI.
        public static let replayedProof = Code(rawValue: "replayed_jti")
        /// An access token was presented and the proof has no `ath`.
        public static let accessTokenHashMissing = Code(rawValue: "ath_missing")
        /// `ath` is not the hash of the presented access token.
        public static let accessTokenHashMismatch = Code(rawValue: "ath_mismatch")
        /// The access token's `cnf.jkt` is not the thumbprint of the proof's key.
        public static let keyBindingMismatch = Code(rawValue: "jkt_mismatch")
        /// The builder was given an unusable method or URI, or the signer failed.
        public static let cannotBuildProof = Code(rawValue: "cannot_build_proof")
    }

    /// Why the proof was refused.
    public let code: Code
    /// A human-readable detail. It never contains the proof, token or key material.
    public let reason: String

    /// The same as ``reason``: what `CodedError` reads.
    public var message: String { reason }

    /// Creates an error.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

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
