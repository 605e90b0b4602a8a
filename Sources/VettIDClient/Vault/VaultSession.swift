// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// The outcome of a successful vault authentication: a DPoP-bound vault session token and the new package
/// (already stored by ``VaultAuthenticator``).
public struct VaultSession: Sendable, Hashable, CustomStringConvertible {
    /// The vault session token, sent as `Authorization: DPoP <token>` to the vault and NATS endpoints.
    public let token: String
    /// When the token expires.
    public let expiresAt: Date
    /// The rotated credential package.
    public let credential: CredentialPackage

    /// Creates a session.
    public init(token: String, expiresAt: Date, credential: CredentialPackage) {
        self.token = token
        self.expiresAt = expiresAt
        self.credential = credential
    }

    /// Never shows the token.
    public var description: String { "VaultSession(expires: \(expiresAt), \(credential))" }
}
