// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Crypto

/// Issues NATS credentials for a `NatsConnectionManager` (module `VettIDNats`).
///
/// ``VaultService`` conforms (it asks the backend for an `app` token); tests can supply a provider that signs
/// user JWTs locally. Throw when no credentials can be had (for example the token was revoked and the vault
/// session cannot be renewed): the manager then reports `NatsConnectionState.error(_:)`.
public protocol NatsCredentialProvider: Sendable {
    /// New credentials, valid from now.
    func issueCredentials() async throws -> NatsCredentials

    /// The device's mailbox key (the private half of the key its credentials registered), to open what waited in
    /// its mailbox; `nil` when the provider registers none.
    func mailboxPrivateKey() async -> Curve25519.KeyAgreement.PrivateKey?
}

extension NatsCredentialProvider {
    /// No mailbox key.
    public func mailboxPrivateKey() async -> Curve25519.KeyAgreement.PrivateKey? { nil }
}
