// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
import Logging
import SwiftASN1
import VettIDAttestation
import VettIDCore
import VettIDVerification
import X509

/// Builds a ``ServerConfiguration`` from, in increasing precedence: defaults, a JSON file, environment
/// variables (`VETTID_` + the key in upper case, e.g. `VETTID_DATABASE_URL`), and command-line flags.
///
/// Keys are the snake_case names documented on ``ServerConfiguration``; an unknown key or a bad value is an
/// error naming the key and its source, never silently ignored.
public struct ConfigurationLoader: Sendable {
    /// A configuration value that could not be used.
    public struct Invalid: Error, CustomStringConvertible, Equatable {
        public let key: String
        public let source: String
        public let reason: String
        public var description: String { "configuration \(key) from \(source): \(reason)" }
    }

    /// Every key the server understands.
    public static let keys: Set<String> = [
        "host", "port", "data_dir", "database_url", "database_lease_timeout_seconds", "log_level", "log_format",
        "metrics_token", "max_body_bytes", "key_reload_seconds", "key_activation_delay_seconds",
        "argon2_iterations", "argon2_memory_kib", "argon2_parallelism", "argon2_max_concurrent",
        "password_min_length", "password_min_score",
        "access_token_ttl_seconds", "refresh_token_ttl_seconds", "session_ttl_seconds",
        "rate_limit_ip_per_minute", "rate_limit_account_failures", "trust_forwarded_for", "public_url",
        "gate_app_id", "gate_environments", "gate_trust_software_root", "gate_software_root_pem_file",
        "gate_development_tokens", "gate_token_ttl_seconds", "gate_upstreams", "gate_upstream_api_keys",
        "gate_proxy_max_body_bytes", "gate_upstream_connect_timeout_seconds", "gate_upstream_read_timeout_seconds",
        "gate_upstream_max_connections",
        "enrollment_require_attestation", "enrollment_session_ttl_seconds", "vault_action_ttl_seconds",
        "vault_secret_read_window_seconds",
        "vault_session_ttl_seconds", "vault_max_failed_attempts", "rate_limit_enroll_per_minute",
        "rate_limit_action_per_minute", "rate_limit_account_failures_ceiling",
        "nats_url", "nats_public_url", "nats_ca_file", "nats_app_token_ttl_seconds", "nats_vault_token_ttl_seconds",
        "nats_max_active_tokens", "nats_worker_instances", "nats_worker_max_payload_bytes",
        "nats_mailbox_enabled", "nats_mailbox_max_age_seconds", "nats_mailbox_max_per_device",
        "nats_mailbox_max_devices", "nats_mailbox_max_bytes", "nats_mailbox_replicas", "nats_mailbox_relay_interval_ms",
        "apns_key_file", "apns_key_id", "apns_team_id", "apns_bundle_ids", "apns_production_url", "apns_sandbox_url",
        "apns_ca_file", "apns_expiration_seconds", "apns_token_refresh_seconds", "apns_queue_capacity",
        "apns_max_attempts", "apns_max_concurrent", "apns_request_timeout_seconds",
        "passkey_rp_id", "passkey_rp_name", "passkey_origins", "passkey_user_verification", "passkey_app_ids",
    ]

    public init() {}

    /// Loads the configuration. `flags` are already-parsed command-line values keyed like the file.
    public func load(
        file: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        flags: [String: String] = [:]
    ) throws -> ServerConfiguration {
        var layers: [(source: String, values: [String: String])] = []
        let filePath = flags["config"] ?? file ?? environment["VETTID_CONFIG"]
        if let filePath { layers.append(("file \(filePath)", try Self.readFile(filePath))) }
        var fromEnvironment: [String: String] = [:]
        for key in Self.keys {
            if let value = environment["VETTID_" + key.uppercased()] { fromEnvironment[key] = value }
        }
        layers.append(("environment", fromEnvironment))
        layers.append(("flags", flags.filter { $0.key != "config" }))

        var configuration = ServerConfiguration()
        for layer in layers {
            for (key, value) in layer.values.sorted(by: { $0.key < $1.key }) {
                try Self.apply(key: key, value: value, source: layer.source, to: &configuration)
            }
        }
        for (name, upstream) in configuration.gate.upstreams where upstream.baseURL.isEmpty {
            throw Invalid(
                key: "gate_upstream_api_keys", source: "configuration",
                reason: "names upstream \(name), which gate_upstreams does not define")
        }
        try Self.checkAPNS(configuration.apns)
        return configuration
    }

    /// APNs needs its key id, team id and a bundle id once a key file is set.
    static func checkAPNS(_ apns: APNSConfiguration) throws {
        guard apns.isEnabled else { return }
        for (key, missing) in [
            ("apns_key_id", apns.keyID == nil), ("apns_team_id", apns.teamID == nil),
            ("apns_bundle_ids", apns.bundleIDs.isEmpty),
        ] where missing {
            throw Invalid(key: key, source: "configuration", reason: "is required when apns_key_file is set")
        }
    }

    /// A scalar value in the JSON configuration file.
    private struct Scalar: Decodable {
        let text: String?

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                text = nil
            } else if let flag = try? container.decode(Bool.self) {
                text = flag ? "true" : "false"
            } else if let number = try? container.decode(Int.self) {
                text = String(number)
            } else {
                text = try container.decode(String.self)
            }
        }
    }

    static func readFile(_ path: String) throws -> [String: String] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Invalid(key: "config", source: path, reason: "cannot read the file")
        }
        guard let object = try? JSONDecoder().decode([String: Scalar].self, from: data) else {
            throw Invalid(
                key: "config", source: path, reason: "must be a JSON object of strings, integers and booleans")
        }
        return object.compactMapValues(\.text)
    }

    // swiftlint:disable:next cyclomatic_complexity
    /// Whether `text` is a web origin as WebAuthn's client data carries it: `http` or `https`, a host, an optional
    /// port, nothing else (no path, no trailing slash).
    static func isOrigin(_ text: String) -> Bool {
        guard let url = URLComponents(string: text), ["http", "https"].contains(url.scheme ?? ""),
            url.host?.isEmpty == false, url.path.isEmpty, url.query == nil, url.fragment == nil, url.user == nil
        else { return false }
        return true
    }

    static func apply(key: String, value: String, source: String, to c: inout ServerConfiguration) throws {
        func int(_ range: ClosedRange<Int>) throws -> Int {
            guard let number = Int(value.trimmingCharacters(in: .whitespaces)), range.contains(number) else {
                throw Invalid(
                    key: key, source: source, reason: "must be an integer in \(range.lowerBound)...\(range.upperBound)")
            }
            return number
        }
        func bool() throws -> Bool {
            switch value.trimmingCharacters(in: .whitespaces).lowercased() {
            case "true", "1", "yes": return true
            case "false", "0", "no": return false
            default: throw Invalid(key: key, source: source, reason: "must be true or false")
            }
        }
        func natsURL() throws -> String {
            let text = value.trimmingCharacters(in: .whitespaces)
            guard let url = URLComponents(string: text), ["nats", "tls"].contains(url.scheme ?? ""),
                url.host?.isEmpty == false
            else {
                throw Invalid(key: key, source: source, reason: "must be a nats:// or tls:// URL with a host")
            }
            return text
        }
        func appleID() throws -> String? {
            let text = value.trimmingCharacters(in: .whitespaces)
            guard
                text.isEmpty
                    || (text.utf8.count == 10 && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
            else { throw Invalid(key: key, source: source, reason: "must be 10 letters or digits, as Apple shows it") }
            return text.isEmpty ? nil : text
        }
        func httpsOrigin() throws -> String {
            let text = value.trimmingCharacters(in: .whitespaces)
            guard let url = URL(string: text), url.scheme == "https", url.host?.isEmpty == false,
                url.path.isEmpty || url.path == "/", url.query == nil
            else {
                throw Invalid(
                    key: key, source: source, reason: "must be an https:// origin such as https://api.push.apple.com")
            }
            return text
        }
        func list() -> [String] {
            value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        switch key {
        case "host": c.host = value
        case "port": c.port = try int(0...65_535)
        case "data_dir": c.dataDirectory = value
        case "database_url": c.databaseURL = value.isEmpty ? nil : value
        case "database_lease_timeout_seconds": c.databaseLeaseTimeout = .seconds(try int(1...300))
        case "log_level":
            guard let level = Logger.Level(rawValue: value.lowercased()) else {
                throw Invalid(
                    key: key, source: source,
                    reason: "must be one of trace, debug, info, notice, warning, error, critical")
            }
            c.logLevel = level
        case "metrics_token":
            guard value.isEmpty || value.utf8.count >= 16 else {
                throw Invalid(key: key, source: source, reason: "must have at least 16 characters")
            }
            c.metricsToken = value.isEmpty ? nil : value
        case "log_format":
            guard let format = ServerConfiguration.LogFormat(rawValue: value.lowercased()) else {
                throw Invalid(key: key, source: source, reason: "must be text or json")
            }
            c.logFormat = format
        case "key_reload_seconds": c.keyReloadInterval = .seconds(try int(1...3_600))
        case "key_activation_delay_seconds": c.keyActivationDelay = .seconds(try int(0...86_400))
        case "max_body_bytes": c.maxBodyBytes = try int(1_024...(64 << 20))
        case "argon2_iterations": c.argon2.iterations = UInt32(try int(1...100))
        case "argon2_memory_kib": c.argon2.memoryKiB = UInt32(try int(1_024...(4 << 20)))
        case "argon2_parallelism": c.argon2.parallelism = UInt32(try int(1...64))
        case "argon2_max_concurrent": c.maxConcurrentHashes = try int(1...1_024)
        case "password_min_length": c.passwordPolicy.minimumLength = try int(8...256)
        case "password_min_score": c.passwordPolicy.minimumScore = try int(0...4)
        case "access_token_ttl_seconds": c.tokens.accessTokenLifetime = .seconds(try int(30...86_400))
        case "refresh_token_ttl_seconds": c.tokens.refreshTokenLifetime = .seconds(try int(60...(366 * 86_400)))
        case "session_ttl_seconds": c.tokens.sessionLifetime = .seconds(try int(60...(3 * 366 * 86_400)))
        case "rate_limit_ip_per_minute": c.limits.perIP = .init(capacity: try int(1...1_000_000), window: .seconds(60))
        case "rate_limit_account_failures":
            c.limits.failedLoginsPerAccount = .init(capacity: try int(1...1_000), window: .seconds(300))
        case "rate_limit_account_failures_ceiling":
            c.limits.failedLoginsPerAccountCeiling = .init(capacity: try int(1...1_000_000), window: .seconds(300))
        case "trust_forwarded_for": c.trustForwardedFor = try bool()
        case "public_url":
            guard let url = URL(string: value), let scheme = url.scheme, ["http", "https"].contains(scheme),
                url.host != nil, url.path.isEmpty || url.path == "/", url.query == nil
            else {
                throw Invalid(
                    key: key, source: source, reason: "must be an http(s) origin such as https://api.example.com")
            }
            c.publicURL = value.hasSuffix("/") ? String(value.dropLast()) : value
        case "gate_app_id":
            let parts = value.split(separator: ".", maxSplits: 1)
            guard parts.count == 2, parts[0].count == 10, !parts[1].isEmpty else {
                throw Invalid(key: key, source: source, reason: "must be <10-character TeamID>.<bundle id>")
            }
            c.gate.appID = value
        case "gate_environments":
            var environments: Set<AppAttestEnvironment> = []
            for name in value.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) {
                switch name {
                case "production": environments.insert(.production)
                case "development": environments.insert(.development)
                default: throw Invalid(key: key, source: source, reason: "must list production and/or development")
                }
            }
            guard !environments.isEmpty else {
                throw Invalid(key: key, source: source, reason: "must list production and/or development")
            }
            c.gate.allowedEnvironments = environments
        case "gate_trust_software_root": c.gate.trustSoftwareRoot = try bool()
        case "gate_software_root_pem_file":
            guard let pem = try? String(contentsOfFile: value, encoding: .utf8),
                let root = try? Certificate(pemEncoded: pem)
            else { throw Invalid(key: key, source: source, reason: "must name a readable PEM certificate file") }
            c.gate.softwareRoots = [root]
        case "gate_development_tokens":
            let tokens = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                !$0.isEmpty
            }
            guard tokens.allSatisfy({ $0.utf8.count >= 16 }) else {
                throw Invalid(
                    key: key, source: source, reason: "each development token must have at least 16 characters")
            }
            c.gate.developmentTokens = tokens
        case "gate_token_ttl_seconds": c.gate.tokenLifetime = .seconds(try int(30...86_400))
        case "gate_upstreams":
            var upstreams: [String: GateUpstream] = [:]
            for entry in value.split(separator: ",") {
                let pair = entry.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                // The proxy's own parser decides: what it cannot connect to is refused here, at start-up.
                guard pair.count == 2, !pair[0].isEmpty, !pair[0].contains("/"),
                    UpstreamEndpoint(baseURL: pair[1]) != nil
                else {
                    throw Invalid(
                        key: key, source: source, reason: "must be name=http(s)://host[:port][/path],… entries")
                }
                let existing = c.gate.upstreams[pair[0]]
                upstreams[pair[0]] = GateUpstream(
                    baseURL: pair[1], apiKeyHeader: existing?.apiKeyHeader, apiKey: existing?.apiKey)
            }
            for (name, upstream) in c.gate.upstreams where upstreams[name] == nil && upstream.baseURL.isEmpty {
                upstreams[name] = upstream
            }
            c.gate.upstreams = upstreams
        case "gate_upstream_api_keys":
            for entry in value.split(separator: ",") {
                let pair = entry.split(separator: "=", maxSplits: 1).map { String($0) }
                let header = pair.count == 2 ? pair[1].split(separator: ":", maxSplits: 1).map { String($0) } : []
                let name = pair.first?.trimmingCharacters(in: .whitespaces) ?? ""
                let headerName = header.first?.trimmingCharacters(in: .whitespaces) ?? ""
                guard header.count == 2, !name.isEmpty, !headerName.isEmpty else {
                    // Never echo the value: it holds secrets.
                    throw Invalid(key: key, source: source, reason: "must be name=Header-Name: key,… entries")
                }
                var upstream = c.gate.upstreams[name] ?? GateUpstream(baseURL: "")
                upstream.apiKeyHeader = headerName
                upstream.apiKey = header[1].trimmingCharacters(in: .whitespaces)
                c.gate.upstreams[name] = upstream
            }
        case "gate_proxy_max_body_bytes": c.gate.proxyMaxBodyBytes = try int(1_024...(1 << 30))
        case "gate_upstream_connect_timeout_seconds": c.gate.upstreamConnectTimeout = .seconds(try int(1...300))
        case "gate_upstream_read_timeout_seconds": c.gate.upstreamReadTimeout = .seconds(try int(1...3_600))
        case "gate_upstream_max_connections": c.gate.upstreamMaxConnections = try int(1...4_096)
        case "enrollment_require_attestation": c.vault.requireAttestation = try bool()
        case "enrollment_session_ttl_seconds": c.vault.enrollmentSessionLifetime = .seconds(try int(60...86_400))
        case "vault_action_ttl_seconds": c.vault.actionLifetime = .seconds(try int(10...3_600))
        case "vault_secret_read_window_seconds": c.vault.secretReadWindow = .seconds(try int(10...86_400))
        case "vault_session_ttl_seconds": c.vault.sessionLifetime = .seconds(try int(60...86_400))
        case "vault_max_failed_attempts": c.vault.maxFailedAttempts = try int(1...100)
        case "rate_limit_enroll_per_minute":
            c.vault.enrollmentStartsPerIP = .init(capacity: try int(1...1_000_000), window: .seconds(60))
        case "rate_limit_action_per_minute":
            c.vault.actionsPerCredential = .init(capacity: try int(1...1_000_000), window: .seconds(60))
        case "nats_url": c.nats.url = value.isEmpty ? nil : try natsURL()
        case "nats_public_url": c.nats.publicURL = value.isEmpty ? nil : try natsURL()
        case "nats_ca_file": c.nats.caFile = value.isEmpty ? nil : value
        case "nats_app_token_ttl_seconds": c.nats.appTokenLifetime = .seconds(try int(10...86_400))
        case "nats_vault_token_ttl_seconds": c.nats.vaultTokenLifetime = .seconds(try int(10...86_400))
        case "nats_max_active_tokens": c.nats.maxActiveTokensPerMember = try int(1...1_000)
        case "nats_worker_instances": c.nats.workerInstances = try int(0...64)
        case "nats_worker_max_payload_bytes": c.nats.workerMaxPayloadBytes = try int(1_024...(1 << 20))
        case "nats_mailbox_enabled": c.nats.mailboxEnabled = try bool()
        case "nats_mailbox_max_age_seconds": c.nats.mailboxMaxAge = .seconds(try int(60...(365 * 86_400)))
        case "nats_mailbox_max_per_device": c.nats.mailboxMaxPerDevice = Int64(try int(1...1_000_000))
        case "nats_mailbox_max_devices": c.nats.mailboxMaxDevices = try int(1...1_000)
        case "nats_mailbox_max_bytes": c.nats.mailboxMaxBytes = Int64(try int(1 << 20...Int(1) << 50))
        case "nats_mailbox_replicas": c.nats.mailboxReplicas = try int(1...5)
        case "nats_mailbox_relay_interval_ms": c.nats.mailboxRelayInterval = .milliseconds(try int(10...60_000))
        case "apns_key_file": c.apns.keyFile = value.isEmpty ? nil : value
        case "apns_key_id": c.apns.keyID = try appleID()
        case "apns_team_id": c.apns.teamID = try appleID()
        case "apns_bundle_ids":
            let ids = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            guard ids.allSatisfy({ $0.contains(".") && !$0.contains(" ") }) else {
                throw Invalid(
                    key: key, source: source, reason: "must be bundle ids such as org.example.app, comma-separated")
            }
            c.apns.bundleIDs = Set(ids)
        case "apns_production_url": c.apns.productionURL = try httpsOrigin()
        case "apns_sandbox_url": c.apns.sandboxURL = try httpsOrigin()
        case "apns_ca_file": c.apns.caFile = value.isEmpty ? nil : value
        case "apns_expiration_seconds": c.apns.expiration = .seconds(try int(0...(30 * 86_400)))
        case "apns_token_refresh_seconds": c.apns.tokenRefreshInterval = .seconds(try int(1_200...3_300))
        case "apns_queue_capacity": c.apns.queueCapacity = try int(1...1_000_000)
        case "apns_max_attempts": c.apns.maxAttempts = try int(1...20)
        case "apns_max_concurrent": c.apns.maxConcurrentSends = try int(1...1_000)
        case "apns_request_timeout_seconds": c.apns.requestTimeout = .seconds(try int(1...300))
        case "passkey_rp_id":
            let host = value.lowercased()
            guard !host.isEmpty, host.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" }),
                !host.hasPrefix("."), !host.hasSuffix("."), Double(host) == nil, host.contains(where: \.isLetter)
            else { throw Invalid(key: key, source: source, reason: "must be a domain name such as vettid.example") }
            c.passkeys.rpID = host
        case "passkey_rp_name":
            guard (1...64).contains(value.count) else {
                throw Invalid(key: key, source: source, reason: "must be 1 to 64 characters")
            }
            c.passkeys.rpName = value
        case "passkey_origins":
            let origins = list()
            guard origins.allSatisfy(Self.isOrigin) else {
                throw Invalid(
                    key: key, source: source, reason: "must be origins such as https://vettid.example, comma-separated")
            }
            c.passkeys.origins = origins
        case "passkey_user_verification":
            guard let policy = PasskeyRelyingParty.UserVerification(rawValue: value) else {
                throw Invalid(key: key, source: source, reason: "must be required, preferred or discouraged")
            }
            c.passkeys.userVerification = policy
        case "passkey_app_ids":
            let ids = list()
            guard ids.allSatisfy({ $0.split(separator: ".").count >= 3 && !$0.contains(" ") }) else {
                throw Invalid(key: key, source: source, reason: "must be app ids such as ABCDE12345.org.example.app")
            }
            c.passkeys.appIDs = ids
        default:
            throw Invalid(key: key, source: source, reason: "unknown key")
        }
    }
}
