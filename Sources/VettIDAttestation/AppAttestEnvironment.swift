// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The App Attest environment, identified by the authenticator data's aaguid.

/// The App Attest environment a key was attested in.
public struct AppAttestEnvironment: Sendable, Hashable, CustomStringConvertible {
    /// The 16-byte aaguid that identifies the environment in authenticator data.
    public let aaguid: [UInt8]
    /// A name for logs and configuration.
    public let name: String

    /// Creates an environment from its aaguid.
    public init(name: String, aaguid: [UInt8]) {
        self.name = name
        self.aaguid = aaguid
    }

    /// Development builds: aaguid `appattestdevelop`.
    public static let development = AppAttestEnvironment(name: "development", aaguid: Array("appattestdevelop".utf8))
    /// App Store and TestFlight builds: aaguid `appattest` followed by seven zero bytes.
    public static let production = AppAttestEnvironment(
        name: "production", aaguid: Array("appattest".utf8) + [UInt8](repeating: 0, count: 7))

    public var description: String { name }
}
