import Foundation
import NATSClient
import NIOCore
import Testing

/// Certificates made with the openssl CLI for one test: a CA, a server certificate for 127.0.0.1 and
/// localhost, and a client certificate, all signed by the CA.
struct TestCertificates {
    let directory: URL
    var ca: String { directory.appendingPathComponent("ca.pem").path }
    var serverCert: String { directory.appendingPathComponent("server.pem").path }
    var serverKey: String { directory.appendingPathComponent("server-key.pem").path }
    var clientCert: String { directory.appendingPathComponent("client.pem").path }
    var clientKey: String { directory.appendingPathComponent("client-key.pem").path }

    static var opensslAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl") }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("nats-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try "subjectAltName=IP:127.0.0.1,DNS:localhost\n".write(
            to: directory.appendingPathComponent("server.ext"), atomically: true, encoding: .utf8)
        try "extendedKeyUsage=clientAuth\n".write(
            to: directory.appendingPathComponent("client.ext"), atomically: true, encoding: .utf8)
        try run(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
                 "-subj", "/CN=Test CA", "-keyout", "ca-key.pem", "-out", "ca.pem"])
        for name in ["server", "client"] {
            try run(["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                     "-subj", "/CN=\(name)", "-keyout", "\(name)-key.pem", "-out", "\(name).csr"])
            try run(["x509", "-req", "-in", "\(name).csr", "-CA", "ca.pem", "-CAkey", "ca-key.pem", "-CAcreateserial",
                     "-days", "2", "-extfile", "\(name).ext", "-out", "\(name).pem"])
        }
    }

    private func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw NATSServerProcess.SkipError("openssl \(arguments[0]) failed") }
    }

    func cleanUp() { try? FileManager.default.removeItem(at: directory) }
}

@Suite(.enabled(if: NATSServerProcess.isAvailable && TestCertificates.opensslAvailable, "nats-server or openssl missing: TLS tests skipped"))
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
        let untrusting = try NATSClient(configuration: NATSClient.Configuration(servers: [server.url], reconnect: .disabled))
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
