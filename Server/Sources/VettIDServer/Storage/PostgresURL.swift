// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import PostgresNIO
import VettIDCore

/// Parses `postgres://` URLs into a `PostgresClient` configuration.
enum PostgresURL {
    /// The failure to understand a database URL; the message never includes the password.
    struct InvalidURL: Error, CustomStringConvertible {
        let reason: String
        var description: String { "invalid database URL: \(reason)" }
    }

    static func parse(_ text: String) throws -> PostgresClient.Configuration {
        guard let components = URLComponents(string: text) else { throw InvalidURL(reason: "not a URL") }
        guard components.scheme == "postgres" || components.scheme == "postgresql" else {
            throw InvalidURL(reason: "scheme must be postgres:// or postgresql://")
        }
        guard let host = components.host, !host.isEmpty else { throw InvalidURL(reason: "missing host") }
        guard let user = components.user, !user.isEmpty else { throw InvalidURL(reason: "missing user name") }
        let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        let sslMode = components.queryItems?.first { $0.name == "sslmode" }?.value ?? "prefer"
        let tls: PostgresClient.Configuration.TLS
        switch sslMode {
        case "disable": tls = .disable
        case "prefer", "allow": tls = .prefer(.makeClientConfiguration())
        case "require", "verify-full": tls = .require(.makeClientConfiguration())
        default: throw InvalidURL(reason: "unknown sslmode \(sslMode)")
        }
        var configuration = PostgresClient.Configuration(
            host: host,
            port: components.port ?? 5432,
            username: user,
            password: components.password,
            database: database.isEmpty ? nil : database,
            tls: tls
        )
        configuration.options.maximumConnections = 20
        if let schema = components.queryItems?.first(where: { $0.name == "search_path" })?.value {
            // Lets tests and multi-tenant deployments keep each store in its own schema.
            configuration.options.additionalStartupParameters = [("search_path", schema)]
        }
        return configuration
    }
}
