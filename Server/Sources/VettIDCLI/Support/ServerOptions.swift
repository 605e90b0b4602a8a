// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import ArgumentParser
import VettIDServer

/// Flags that configure the backend; each overrides the file and the environment (see docs/operations.md).
public struct ServerOptions: ParsableArguments {
    @Option(help: "JSON configuration file (also VETTID_CONFIG).")
    var config: String?
    @Option(help: "Address to listen on (default 127.0.0.1).")
    var host: String?
    @Option(help: "Port to listen on; 0 picks a free one (default 8080).")
    var port: Int?
    @Option(name: .customLong("data-dir"), help: "Directory for keys and the SQLite database (default ./vettid-data).")
    var dataDirectory: String?
    @Option(
        name: .customLong("database-url"),
        help: "postgres://user:password@host:port/db to use PostgreSQL instead of SQLite.")
    var databaseURL: String?
    @Option(
        name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical (default info).")
    var logLevel: String?
    @Option(
        name: .customLong("nats-url"), help: "nats-server for revocations and the vault worker (nats:// or tls://).")
    var natsURL: String?

    public init() {}

    /// The flags as configuration keys, for ``ConfigurationLoader``.
    var values: [String: String] {
        var values: [String: String] = [:]
        values["config"] = config
        values["host"] = host
        values["port"] = port.map(String.init)
        values["data_dir"] = dataDirectory
        values["database_url"] = databaseURL
        values["log_level"] = logLevel
        values["nats_url"] = natsURL
        return values
    }

    /// The configuration these flags, the file and the environment give; a bad value is a usage error.
    func loadConfiguration() throws -> ServerConfiguration {
        do {
            return try ConfigurationLoader().load(flags: values)
        } catch {
            throw ValidationError("\(error)")
        }
    }
}
