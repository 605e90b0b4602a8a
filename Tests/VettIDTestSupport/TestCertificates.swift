// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// A throwaway PKI made with the openssl CLI for TLS tests.

public import Foundation

/// Certificates made with the openssl CLI for one test: a CA, a server certificate for 127.0.0.1 and
/// localhost, and a client certificate, all signed by the CA.
public struct TestCertificates: Sendable {
    public let directory: URL
    public var ca: String { directory.appendingPathComponent("ca.pem").path }
    public var serverCert: String { directory.appendingPathComponent("server.pem").path }
    public var serverKey: String { directory.appendingPathComponent("server-key.pem").path }
    public var clientCert: String { directory.appendingPathComponent("client.pem").path }
    public var clientKey: String { directory.appendingPathComponent("client-key.pem").path }

    public static var opensslAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl") }

    public init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("nats-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try "subjectAltName=IP:127.0.0.1,DNS:localhost\n".write(
            to: directory.appendingPathComponent("server.ext"), atomically: true, encoding: .utf8)
        try "extendedKeyUsage=clientAuth\n".write(
            to: directory.appendingPathComponent("client.ext"), atomically: true, encoding: .utf8)
        try run([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
            "-subj", "/CN=Test CA", "-keyout", "ca-key.pem", "-out", "ca.pem",
        ])
        for name in ["server", "client"] {
            try run([
                "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                "-subj", "/CN=\(name)", "-keyout", "\(name)-key.pem", "-out", "\(name).csr",
            ])
            try run([
                "x509", "-req", "-in", "\(name).csr", "-CA", "ca.pem", "-CAkey", "ca-key.pem", "-CAcreateserial",
                "-days", "2", "-extfile", "\(name).ext", "-out", "\(name).pem",
            ])
        }
    }

    private func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let exit = ProcessExitWatcher(process)
        try process.run()
        guard exit.wait(timeout: .seconds(60)) else {
            exit.terminate(process, grace: .seconds(1))
            throw NATSServerProcess.SkipError("openssl \(arguments[0]) did not finish within 60 s")
        }
        guard exit.exitStatus == 0 else { throw NATSServerProcess.SkipError("openssl \(arguments[0]) failed") }
    }

    /// `tls { … }` for a nats-server configuration with the server certificate.
    public var serverConfiguration: String {
        "tls { cert_file: \"\(serverCert)\", key_file: \"\(serverKey)\" }"
    }

    public func cleanUp() { try? FileManager.default.removeItem(at: directory) }
}
