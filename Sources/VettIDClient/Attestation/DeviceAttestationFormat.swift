// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// How a device proves it runs the genuine app: the `format` the server verifies.
public struct DeviceAttestationFormat: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The wire value.
    public let rawValue: String
    /// Creates a format from its wire value.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The wire value.
    public var description: String { rawValue }

    /// Apple App Attest (`DCAppAttestService`), verified against Apple's root.
    public static let appleAppAttest = DeviceAttestationFormat(rawValue: "apple-appattest")
    /// App Attest-format objects from a software attester, verified against a test root the server trusts only
    /// when configured to (development, CI).
    public static let software = DeviceAttestationFormat(rawValue: "software")
    /// A development token configured on the server (simulators, CI); never for production.
    public static let development = DeviceAttestationFormat(rawValue: "development")
}
