// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// The vault credential as the device keeps it: the server's ``CredentialPackage`` plus what the device needs to
/// authenticate with it later. ``CredentialStore`` writes it as one item.
public struct VaultCredential: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The package from the last finalize or authentication.
    public var package: CredentialPackage
    /// How the device attested at enrollment (`nil` when the server did not require attestation). An action
    /// request carries an App Attest assertion when the device attested a key (``hasAttestedKey``).
    public var attestationFormat: DeviceAttestationFormat?
    /// When the package was last replaced.
    public var updatedAt: Date
    /// The vault identity keys pinned for sealed sessions; `nil` in a credential stored before the SDK kept them
    /// (the SDK then fetches the set once over the API and stores it).
    public var vaultSessionKeys: PinnedVaultKeys?

    /// The layout version this SDK writes: 2 adds ``vaultSessionKeys``; an item without a version is 1.
    public static let storageVersion = 2

    /// Creates a stored credential.
    public init(
        package: CredentialPackage, attestationFormat: DeviceAttestationFormat?, updatedAt: Date = Date(),
        vaultSessionKeys: PinnedVaultKeys? = nil
    ) {
        self.package = package
        self.attestationFormat = attestationFormat
        self.updatedAt = updatedAt
        self.vaultSessionKeys = vaultSessionKeys
    }

    /// Whether enrollment attested an App Attest-format key (`apple-appattest` or `software`): the server then
    /// requires an assertion with every action request. A `development` token attests no key.
    public var hasAttestedKey: Bool {
        attestationFormat == .appleAppAttest || attestationFormat == .software
    }

    /// The package's description and the format.
    public var description: String {
        "VaultCredential(\(package), attestation: \(attestationFormat?.rawValue ?? "none"))"
    }

    enum CodingKeys: String, CodingKey {
        case package
        case attestationFormat = "attestation_format"
        case updatedAt = "updated_at"
        case vaultSessionKeys = "vault_session_keys"
        case version
    }

    /// Decodes the stored item.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        package = try container.decode(CredentialPackage.self, forKey: .package)
        attestationFormat = try container.decodeIfPresent(String.self, forKey: .attestationFormat).map(
            DeviceAttestationFormat.init(rawValue:))
        updatedAt = try container.decode(Date.self, forKey: .updatedAt)
        let version = try container.decodeIfPresent(Int.self, forKey: .version) ?? 1
        guard (1...Self.storageVersion).contains(version) else {
            throw DecodingError.dataCorruptedError(
                forKey: .version, in: container, debugDescription: "stored by a newer SDK (version \(version))")
        }
        vaultSessionKeys = try container.decodeIfPresent(PinnedVaultKeys.self, forKey: .vaultSessionKeys)
    }

    /// Encodes the stored item.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(package, forKey: .package)
        try container.encodeIfPresent(attestationFormat?.rawValue, forKey: .attestationFormat)
        try container.encode(updatedAt, forKey: .updatedAt)
        try container.encodeIfPresent(vaultSessionKeys, forKey: .vaultSessionKeys)
        try container.encode(Self.storageVersion, forKey: .version)
    }
}
