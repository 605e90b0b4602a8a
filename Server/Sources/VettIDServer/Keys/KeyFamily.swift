// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// The families of server keys that rotate independently, each with its own ``KeyRing``.
public enum KeyFamily: String, Sendable, CaseIterable, Codable {
    /// The ES256 keys that sign access, Gate and vault tokens (one per token purpose in each generation; a token's
    /// `kid` names purpose and generation, e.g. `access-2`).
    case tokenSigning = "token-signing"
    /// The keys that seal secrets at rest (transaction and credential keys); a sealed value names its generation.
    case atRest = "at-rest"
    /// The NATS application account's signing keys, which sign members' user JWTs.
    case natsSigning = "nats-signing"
}
