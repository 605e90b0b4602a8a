// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The `nats` section of a NATS JWT differs per claim kind; this protocol ties each kind to its issuer rules.

/// The `nats` section of a NATS JWT v2: user, account or operator claims.
public protocol NATSClaimsBody: Codable, Sendable, Equatable {
    /// The value of `nats.type` (`"user"`, `"account"`, `"operator"`).
    static var claimType: String { get }
    /// The key types allowed to issue (sign) these claims.
    static var issuerTypes: [NKeyType] { get }
    /// The key type of the subject.
    static var subjectType: NKeyType { get }
}
