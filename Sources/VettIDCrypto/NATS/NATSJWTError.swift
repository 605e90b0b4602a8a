// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

// Errors from encoding, decoding and verifying NATS JWTs and creds files.

/// An error raised while encoding, decoding or verifying a NATS JWT or parsing a creds file.
///
/// Match on ``code``; the set of codes is open and may grow.
public struct NATSJWTError: CodedError, Hashable {
    /// What went wrong, as a stable string.
    public struct Code: ErrorCode {
        /// The stable name of the code.
        public let rawValue: String

        /// Creates a code from its stable name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The token does not have three base64url segments.
        public static let malformed = Code(rawValue: "malformed")
        /// The header is not `{"typ":"JWT","alg":"ed25519-nkey"}`.
        public static let unsupportedHeader = Code(rawValue: "unsupported_header")
        /// The payload is not the expected claims JSON.
        public static let invalidClaims = Code(rawValue: "invalid_claims")
        /// The claims `nats.type` is not the requested kind (user, account, operator).
        public static let wrongClaimType = Code(rawValue: "wrong_claim_type")
        /// The issuer is not an NKey of a type allowed to sign these claims.
        public static let invalidIssuer = Code(rawValue: "invalid_issuer")
        /// The Ed25519 signature does not verify with the issuer key.
        public static let invalidSignature = Code(rawValue: "invalid_signature")
        /// Signing failed (for example the signer holds only a public key).
        public static let signingFailed = Code(rawValue: "signing_failed")
        /// The creds text holds no JWT or no seed.
        public static let invalidCreds = Code(rawValue: "invalid_creds")
    }

    /// What went wrong.
    public let code: Code
    /// A human-readable explanation. Never contains seeds or signatures.
    public let message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
}
