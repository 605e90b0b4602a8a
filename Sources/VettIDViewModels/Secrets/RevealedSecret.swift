// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDMessaging

/// A secret value the member asked to see (``SecretsState/Activity/revealed(_:)``): shown in its own row until
/// hidden. The value is ``SecretBytes``, which no description or mirror shows.
public struct RevealedSecret: Sendable, Hashable {
    /// The secret's name.
    public let name: String
    /// The value.
    public let value: SecretBytes
    /// The version read.
    public let version: Int64
    /// When this version was stored, in milliseconds since 1970.
    public let updatedAt: Int64

    /// Creates a revealed secret.
    public init(name: String, value: SecretBytes, version: Int64, updatedAt: Int64) {
        self.name = name
        self.value = value
        self.version = version
        self.updatedAt = updatedAt
    }

    /// What `secret.get` answered.
    public init(_ value: SecretValue) {
        self.init(
            name: value.name, value: SecretBytes(value.value), version: value.version, updatedAt: value.updatedAt)
    }
}
