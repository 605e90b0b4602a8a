// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Adds TLS in front of the NATS decoder after INFO (NIOSSL on Linux).

import NIOCore

#if canImport(NIOSSL)
    import NIOSSL
#endif

enum NATSTLSUpgrade {
    /// Inserts a TLS client handler at the front of the pipeline. The handler reports
    /// `TLSUserEvent.handshakeCompleted`, which ``NATSChannelHandler`` turns into `tlsEstablished`.
    static func addHandler(to channel: any Channel, configuration: NATSTLSConfiguration, serverHostname: String) throws
    {
        #if canImport(NIOSSL)
            var tls = TLSConfiguration.makeClientConfiguration()
            if let roots = configuration.rootCertificatesPath {
                tls.trustRoots = .file(roots)
            }
            if let certificatePath = configuration.clientCertificatePath,
                let keyPath = configuration.clientPrivateKeyPath
            {
                tls.certificateChain = try NIOSSLCertificate.fromPEMFile(certificatePath).map { .certificate($0) }
                tls.privateKey = .privateKey(try NIOSSLPrivateKey(file: keyPath, format: .pem))
            }
            let context = try NIOSSLContext(configuration: tls)
            let isIPAddress = (try? SocketAddress(ipAddress: serverHostname, port: 0)) != nil
            let handler = try NIOSSLClientHandler(context: context, serverHostname: isIPAddress ? nil : serverHostname)
            try channel.pipeline.syncOperations.addHandler(handler, position: .first)
        #else
            throw NATSError(.tlsRequired, "TLS is not available on this platform build")
        #endif
    }
}
