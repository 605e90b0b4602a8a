// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import ArgumentParser
import Foundation
import Logging
import VettIDServer

/// `vettid-server nats-config`: the nats-server configuration for this server's trust (operator mode).
public struct NATSConfigCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "nats-config",
        abstract: "Print or write the nats-server configuration (operator mode, full resolver) for this server.",
        discussion: """
            Generates the operator, system account and application account on first run (kept 0600 in \
            <data-dir>/nats/trust.json). The application account JWT is preloaded with the revocations the store \
            holds now; later revocations are pushed to nats-server at runtime through the system account.
            Run nats-server with: nats-server -c <file>
            """
    )

    @OptionGroup var options: ServerOptions
    @Option(name: .customLong("listen-host"), help: "Address nats-server listens on.")
    var listenHost = "127.0.0.1"
    @Option(name: .customLong("listen-port"), help: "Port nats-server listens on.")
    var listenPort = 4222
    @Option(name: .customLong("resolver-dir"), help: "The full resolver's directory (default <data-dir>/nats/jwt).")
    var resolverDirectory: String?
    @Option(
        name: .customLong("jetstream-dir"),
        help: "JetStream's store for the members' mailboxes (default <data-dir>/nats/jetstream).")
    var jetStreamDirectory: String?
    @Flag(name: .customLong("no-jetstream"), help: "Leave JetStream off (tokens are then issued without a mailbox).")
    var noJetStream = false
    @Flag(help: "Require TLS: generate a CA and a certificate for 127.0.0.1/localhost in <data-dir>/nats/tls.")
    var tls = false
    @Option(name: .customLong("server-name"), help: "This node's name (required, and unique, in a cluster).")
    var serverName: String?
    @Option(name: .customLong("cluster-port"), help: "Listen for cluster routes on this port (a cluster node).")
    var clusterPort: Int?
    @Option(name: .customLong("route"), help: "nats-route://host:port of another cluster node (repeat per node).")
    var routes: [String] = []
    @Option(help: "Write the configuration to this file (0600) instead of printing it.")
    var output: String?

    public init() {}

    public func run() async throws {
        let configuration = try options.loadConfiguration()
        if clusterPort != nil, serverName == nil {
            throw ValidationError("a cluster node needs --server-name")
        }
        let logger = Logger.process(label: "vettid-server", level: .warning)
        let components = try await ServerComponents.make(configuration: configuration, logger: logger)
        let natsDirectory = configuration.dataDirectory + "/nats"
        let resolverDirectory = resolverDirectory ?? natsDirectory + "/jwt"
        try FileManager.default.createDirectory(atPath: resolverDirectory, withIntermediateDirectories: true)
        var certificate: String?
        var key: String?
        if tls {
            let tlsDirectory = natsDirectory + "/tls"
            if !FileManager.default.fileExists(atPath: tlsDirectory + "/server-cert.pem") {
                _ = try NATSTLSMaterial.generate().write(to: tlsDirectory)
            }
            (certificate, key) = (tlsDirectory + "/server-cert.pem", tlsDirectory + "/server-key.pem")
            FileHandle.standardError.write(Data("clients trust \(tlsDirectory)/ca.pem (nats_ca_file)\n".utf8))
        }
        var renderOptions = NATSServerConfigRenderer.Options(
            host: listenHost, port: listenPort, resolverDirectory: resolverDirectory, tlsCertificateFile: certificate,
            tlsKeyFile: key)
        renderOptions.serverName = serverName
        if !noJetStream, configuration.nats.mailboxEnabled {
            renderOptions.jetStreamDirectory = jetStreamDirectory ?? natsDirectory + "/jetstream"
            renderOptions.jetStreamMaxFileBytes = configuration.nats.mailboxMaxBytes
        }
        renderOptions.cluster = clusterPort.map { .init(host: listenHost, port: $0, routes: routes) }
        let text = try NATSServerConfigRenderer(trust: components.natsTrust).render(
            renderOptions, applicationAccountJWT: try await components.natsAccountJWT.current())
        try await components.shutdownStores()
        if let output {
            try NATSServerConfigRenderer.write(text, to: output)
            FileHandle.standardError.write(Data("wrote \(output); run: nats-server -c \(output)\n".utf8))
        } else {
            print(text, terminator: "")
        }
    }
}
