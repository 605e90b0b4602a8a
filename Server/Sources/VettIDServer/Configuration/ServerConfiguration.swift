// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Logging
public import VettIDCore

/// Everything the server is configured with. Immutable once loaded; see ``ConfigurationLoader`` for sources
/// and docs/operations.md for every key.
public struct ServerConfiguration: Sendable {
    /// Address to listen on (`host`, default `127.0.0.1`).
    public var host: String
    /// Port to listen on (`port`, default `8080`; `0` picks a free port).
    public var port: Int
    /// Where keys and the SQLite database live (`data_dir`, default `./vettid-data`).
    public var dataDirectory: String
    /// `postgres://…` to use PostgreSQL; `nil` uses SQLite at `<data_dir>/vettid.sqlite` (`database_url`).
    public var databaseURL: String?
    /// How long a request waits for a pooled PostgreSQL connection before it is answered 503 `store_unavailable`
    /// (`database_lease_timeout_seconds`, default 3).
    public var databaseLeaseTimeout: Duration = PostgresStore.defaultLeaseTimeout
    /// Log level (`log_level`: trace, debug, info, notice, warning, error, critical; default `info`).
    public var logLevel: Logger.Level
    /// Largest accepted request body in bytes (`max_body_bytes`, default 65536); larger bodies get 413.
    public var maxBodyBytes: Int
    /// Argon2id parameters (`argon2_iterations`, `argon2_memory_kib`, `argon2_parallelism`).
    public var argon2: Argon2Parameters
    /// Concurrent Argon2id hashes at most (`argon2_max_concurrent`, default 4).
    public var maxConcurrentHashes: Int
    /// Password rules (`password_min_length` default 12, `password_min_score` default 3).
    public var passwordPolicy: PasswordPolicy
    /// Token lifetimes (`access_token_ttl_seconds` 900, `refresh_token_ttl_seconds` 1209600,
    /// `session_ttl_seconds` 7776000).
    public var tokens: TokenService.Configuration
    /// Rate limits (`rate_limit_ip_per_minute` 30, `rate_limit_account_failures` 5 per 5 minutes).
    public var limits: AuthService.Limits
    /// Whether to take the client address from `X-Forwarded-For` (`trust_forwarded_for`, default false): only
    /// behind a proxy that sets it.
    public var trustForwardedFor: Bool
    /// The origin clients use to reach this server (`public_url`, e.g. `https://api.example.com`); it goes into
    /// invitation QR codes. Default: `http://<host>:<port>` as bound.
    public var publicURL: String?
    /// The Gate: App Attest, Gate tokens and the proxy (`gate_*` keys; see ``GateConfiguration``).
    public var gate: GateConfiguration
    /// Vault enrollment and authentication (`enrollment_*`, `vault_*` keys; see ``VaultConfiguration``).
    public var vault: VaultConfiguration
    /// NATS: nats-server address, token lifetimes, the vault worker (`nats_*` keys; see ``NATSConfiguration``).
    public var nats: NATSConfiguration
    /// APNs wake pushes: the key, team, bundle ids and endpoints (`apns_*` keys; see ``APNSConfiguration``).
    public var apns: APNSConfiguration = APNSConfiguration()
    /// The passkey relying party (`passkey_*` keys; see ``PasskeyConfiguration``).
    public var passkeys: PasskeyConfiguration = PasskeyConfiguration()
    /// The bearer token a scraper presents at `GET /metrics` (`metrics_token`, at least 16 characters). Unset
    /// (the default): `/metrics` is not served at all.
    public var metricsToken: String?
    /// Log line format of the server process (`log_format`: `text`, the default, or `json`, one object a line).
    public var logFormat: LogFormat = .text

    /// How often a running server re-reads `<data-dir>/keys/keyring.json` for rotated keys (`key_reload_seconds`,
    /// default 10).
    public var keyReloadInterval: Duration = .seconds(10)
    /// How long after `vettid-server keys rotate` a new generation starts signing or sealing
    /// (`key_activation_delay_seconds`, default 60): every instance must have reloaded the ring by then, so it
    /// must exceed ``keyReloadInterval`` plus the instances' clock skew.
    public var keyActivationDelay: Duration = .seconds(60)

    /// How log lines are written.
    public enum LogFormat: String, Sendable {
        /// swift-log's stream format: `timestamp level label: key=value … message`.
        case text
        /// One JSON object per line: `timestamp`, `level`, `label`, `message`, metadata members, `source`.
        case json
    }

    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        dataDirectory: String = "./vettid-data",
        databaseURL: String? = nil,
        logLevel: Logger.Level = .info,
        maxBodyBytes: Int = 65_536,
        argon2: Argon2Parameters = .rfc9106LowMemory,
        maxConcurrentHashes: Int = 4,
        passwordPolicy: PasswordPolicy = PasswordPolicy(),
        tokens: TokenService.Configuration = .init(),
        limits: AuthService.Limits = .init(),
        trustForwardedFor: Bool = false,
        publicURL: String? = nil,
        gate: GateConfiguration = GateConfiguration(),
        vault: VaultConfiguration = VaultConfiguration(),
        nats: NATSConfiguration = NATSConfiguration()
    ) {
        self.host = host
        self.port = port
        self.dataDirectory = dataDirectory
        self.databaseURL = databaseURL
        self.logLevel = logLevel
        self.maxBodyBytes = maxBodyBytes
        self.argon2 = argon2
        self.maxConcurrentHashes = maxConcurrentHashes
        self.passwordPolicy = passwordPolicy
        self.tokens = tokens
        self.limits = limits
        self.trustForwardedFor = trustForwardedFor
        self.publicURL = publicURL
        self.gate = gate
        self.vault = vault
        self.nats = nats
    }

    /// The SQLite file used when no database URL is set.
    public var sqlitePath: String { dataDirectory + "/vettid.sqlite" }
    /// The SQLite database of accepted DPoP proofs (SQLite deployments only).
    public var replaySQLitePath: String { dataDirectory + "/dpop-replay.sqlite" }
}
