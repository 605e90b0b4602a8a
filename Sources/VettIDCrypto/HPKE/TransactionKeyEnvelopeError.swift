// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

// The error thrown by the transaction-key envelope.

/// Sealing or opening a transaction-key envelope failed.
public struct TransactionKeyEnvelopeError: CodedError, Hashable {
    /// An open set of reasons.
    public struct Code: ErrorCode {
        /// The stable identifier of the reason.
        public let rawValue: String
        /// Wraps a raw identifier.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// A context field is empty or longer than 65535 bytes.
        public static let invalidContext = Code(rawValue: "invalid_context")
        /// A public or private key is not a valid X25519 key.
        public static let invalidKey = Code(rawValue: "invalid_key")
        /// The payload names another key than the one used to open it.
        public static let keyIDMismatch = Code(rawValue: "key_id_mismatch")
        /// `enc` or `ciphertext` is not base64url, or `enc` is not 32 bytes.
        public static let malformedPayload = Code(rawValue: "malformed_payload")
        /// Authentication failed: wrong key, wrong context (`info`), wrong AAD, or a modified ciphertext.
        public static let decryptionFailed = Code(rawValue: "decryption_failed")
        /// The HPKE sender could not be set up or could not seal.
        public static let encryptionFailed = Code(rawValue: "encryption_failed")
    }

    /// Why it failed.
    public let code: Code
    /// A human-readable detail; never contains plaintext or key material.
    public let reason: String

    /// The same as ``reason``: what `CodedError` reads.
    public var message: String { reason }

    /// Creates an error.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }
}
