// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// TLS settings: trust roots, an optional client certificate, and the server name to verify.
///
/// Files are PEM. With no roots the system trust store is used.
public struct NATSTLSConfiguration: Sendable, Hashable {
    /// PEM file of the certificate authorities to trust instead of the system store.
    public var rootCertificatesPath: String?
    /// PEM file of the client certificate chain (mutual TLS).
    public var clientCertificatePath: String?
    /// PEM file of the client private key (mutual TLS). Secret: never logged.
    public var clientPrivateKeyPath: String?
    /// Name to verify in the server certificate; defaults to the URL's host.
    public var serverName: String?

    /// Creates TLS settings.
    public init(
        rootCertificatesPath: String? = nil,
        clientCertificatePath: String? = nil,
        clientPrivateKeyPath: String? = nil,
        serverName: String? = nil
    ) {
        self.rootCertificatesPath = rootCertificatesPath
        self.clientCertificatePath = clientCertificatePath
        self.clientPrivateKeyPath = clientPrivateKeyPath
        self.serverName = serverName
    }
}
