// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

// Why a vault session key set from the server was refused.

/// The family of ``PinnedVaultKeyError``.
public enum PinnedVaultKeyErrorDomain: ErrorDomain {}

/// Why a vault identity key set (the enrollment answer's `vault_session_keys`, `GET /vault/session-keys`) was
/// refused. The set is open: match on the codes you know.
public typealias PinnedVaultKeyError = DomainError<PinnedVaultKeyErrorDomain>

extension PinnedVaultKeyError.Code {
    /// A key's `kty` is not `EC`.
    public static let unsupportedKeyType = Self(rawValue: "unsupported_key_type")
    /// A key's `crv` is not `P-256`.
    public static let unsupportedCurve = Self(rawValue: "unsupported_curve")
    /// A key's `alg` is not `ES256`.
    public static let unsupportedAlgorithm = Self(rawValue: "unsupported_algorithm")
    /// A key's `x` or `y` is not 43 characters of unpadded base64url of 32 bytes, or they are not a point on P-256.
    public static let invalidPoint = Self(rawValue: "invalid_point")
    /// A `kid` is empty, longer than 255 bytes, or appears twice.
    public static let invalidKeyID = Self(rawValue: "invalid_key_id")
    /// The set has no key, more than 64, or its `current_kid` is not one of its keys.
    public static let invalidKeySet = Self(rawValue: "invalid_key_set")
}
