// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

// Errors from decoding, encoding and using NKeys.

/// The family of ``NKeyError``.
public enum NKeyErrorDomain: ErrorDomain {}

/// An error raised while decoding or using an NKey.
///
/// Match on `code`; the set of codes is open and may grow.
public typealias NKeyError = DomainError<NKeyErrorDomain>

extension NKeyError.Code {
    /// The text is not valid base32.
    public static let invalidEncoding = Self(rawValue: "invalid_encoding")
    /// The decoded key has the wrong length.
    public static let invalidLength = Self(rawValue: "invalid_length")
    /// The CRC-16 checksum does not match.
    public static let invalidChecksum = Self(rawValue: "invalid_checksum")
    /// The prefix byte is not one of the known key types, or not the expected one.
    public static let invalidPrefix = Self(rawValue: "invalid_prefix")
    /// The text is a public key where a seed was required, or the other way round.
    public static let invalidSeed = Self(rawValue: "invalid_seed")
    /// The operation needs the private key but the key pair holds only a public key.
    public static let publicKeyOnly = Self(rawValue: "public_key_only")
    /// Signing failed in the cryptography backend.
    public static let signingFailed = Self(rawValue: "signing_failed")
}
