// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import VettIDCrypto

// The seam through which a verifier checks server-issued nonces (RFC 9449 §8, §9).

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// The outcome of checking a `nonce` claim.
public enum DPoPNonceVerdict: Sendable, Hashable {
    /// The nonce was issued by this server and is still current.
    case valid
    /// The nonce was issued by this server but is too old.
    case stale
    /// The nonce was not issued by this server.
    case invalid
}

/// Checks the `nonce` claim of a DPoP proof. ``DPoPNonceIssuer`` is the stateless implementation.
public protocol DPoPNonceValidator: Sendable {
    /// Judges `nonce` at time `now`.
    func validate(nonce: String, now: Date) async -> DPoPNonceVerdict
}
