// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

// The error thrown by the transaction-key envelope.

/// The family of ``TransactionKeyEnvelopeError``.
public enum TransactionKeyEnvelopeErrorDomain: ErrorDomain {}

/// Sealing or opening a transaction-key envelope failed.
public typealias TransactionKeyEnvelopeError = DomainError<TransactionKeyEnvelopeErrorDomain>

extension TransactionKeyEnvelopeError.Code {
    /// A context field is empty or longer than 65535 bytes.
    public static let invalidContext = Self(rawValue: "invalid_context")
    /// A public or private key is not a valid X25519 key.
    public static let invalidKey = Self(rawValue: "invalid_key")
    /// The payload names another key than the one used to open it.
    public static let keyIDMismatch = Self(rawValue: "key_id_mismatch")
    /// `enc` or `ciphertext` is not base64url, or `enc` is not 32 bytes.
    public static let malformedPayload = Self(rawValue: "malformed_payload")
    /// Authentication failed: wrong key, wrong context (`info`), wrong AAD, or a modified ciphertext.
    public static let decryptionFailed = Self(rawValue: "decryption_failed")
    /// The HPKE sender could not be set up or could not seal.
    public static let encryptionFailed = Self(rawValue: "encryption_failed")
}

extension TransactionKeyEnvelopeError {
    /// The same as `message` (the name this error gave it first).
    public var reason: String { message }
}
