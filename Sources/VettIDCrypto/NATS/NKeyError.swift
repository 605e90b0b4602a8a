// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

// Errors from decoding, encoding and using NKeys.

/// An error raised while decoding or using an NKey.
///
/// Match on ``code``; the set of codes is open and may grow.
public struct NKeyError: CodedError, Hashable {
    /// What went wrong, as a stable string.
    public struct Code: ErrorCode {
        /// The stable name of the code.
        public let rawValue: String

        /// Creates a code from its stable name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The text is not valid base32.
        public static let invalidEncoding = Code(rawValue: "invalid_encoding")
        /// The decoded key has the wrong length.
        public static let invalidLength = Code(rawValue: "invalid_length")
        /// The CRC-16 checksum does not match.
        public static let invalidChecksum = Code(rawValue: "invalid_checksum")
        /// The prefix byte is not one of the known key types, or not the expected one.
        public static let invalidPrefix = Code(rawValue: "invalid_prefix")
        /// The text is a public key where a seed was required, or the other way round.
        public static let invalidSeed = Code(rawValue: "invalid_seed")
        /// The operation needs the private key but the key pair holds only a public key.
        public static let publicKeyOnly = Code(rawValue: "public_key_only")
        /// Signing failed in the cryptography backend.
        public static let signingFailed = Code(rawValue: "signing_failed")
    }

    /// What went wrong.
    public let code: Code
    /// A human-readable explanation. Never contains key material.
    public let message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
}
