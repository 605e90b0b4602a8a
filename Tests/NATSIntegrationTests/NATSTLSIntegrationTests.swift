// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import NATSClient
import NIOCore
import Testing
import VettIDTestSupport

@Suite(
    .enabled(
        if: NATSServerProcess.isAvailable && TestCertificates.opensslAvailable,
        "nats-server or openssl missing: TLS tests skipped"))
struct NATSTLSIntegrationTests {
    @Test func tlsWithCustomRoots() async throws {
        let certificates = try TestCertificates()
        defer { certificates.cleanUp() }
        let server = try await NATSServerProcess(
            configuration: "tls { cert_file: \"\(certificates.serverCert)\", key_file: \"\(certificates.serverKey)\" }"
        )
        defer { server.cleanUp() }

        let client = try NATSClient(
            configuration: NATSClient.Configuration(
                servers: [server.url],
                reconnect: .disabled,
                tls: NATSTLSConfiguration(rootCertificatesPath: certificates.ca)
            )
        )
        try await client.connect()
        #expect(client.serverInfo?.tlsRequired == true)
        let subscription = try client.subscribe(to: "secure")
        try await client.flush()
        try client.publish("over tls", to: "secure")
        let messages = try await collect(subscription, count: 1)
        #expect(messages.first?.payloadString == "over tls")
        await client.close()

        // Without the CA the server certificate is not trusted.
        let untrusting = try NATSClient(
            configuration: NATSClient.Configuration(servers: [server.url], reconnect: .disabled))
        await #expect(throws: NATSError.self) { try await untrusting.connect() }
    }

    @Test func mutualTLS() async throws {
        let certificates = try TestCertificates()
        defer { certificates.cleanUp() }
        let server = try await NATSServerProcess(
            configuration: """
                tls {
                  cert_file: "\(certificates.serverCert)"
                  key_file: "\(certificates.serverKey)"
                  ca_file: "\(certificates.ca)"
                  verify: true
                }
                """
        )
        defer { server.cleanUp() }
        let client = try NATSClient(
            configuration: NATSClient.Configuration(
                servers: [server.url],
                reconnect: .disabled,
                tls: NATSTLSConfiguration(
                    rootCertificatesPath: certificates.ca,
                    clientCertificatePath: certificates.clientCert,
                    clientPrivateKeyPath: certificates.clientKey
                )
            )
        )
        try await client.connect()
        try await client.flush()
        await client.close()

        let withoutClientCertificate = try NATSClient(
            configuration: NATSClient.Configuration(
                servers: [server.url],
                reconnect: .disabled,
                tls: NATSTLSConfiguration(rootCertificatesPath: certificates.ca)
            )
        )
        await #expect(throws: NATSError.self) { try await withoutClientCertificate.connect() }
    }
}
