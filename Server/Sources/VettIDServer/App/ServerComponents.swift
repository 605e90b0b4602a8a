// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
public import Logging
public import VettIDCore

/// The long-lived parts of a running server, built once from a ``ServerConfiguration``: the composition root.
///
/// Only application building reads it: ``buildRouter(components:)`` hands each feature controller the services it
/// uses, ``ServerRuntime`` runs its background services and closes its stores. No controller, page or handler takes
/// the whole struct. The few fields that stay public are what programs that assemble a server (the CLI's
/// maintenance commands, the benchmarks, tests) use directly: the configuration, the store, the key material they
/// rotate or publish, and the background services.
public struct ServerComponents: Sendable {
    public let configuration: ServerConfiguration
    public let store: any SQLStore
    /// The DPoP replay store when it is not ``store`` (SQLite deployments); shut down with it.
    let separateReplayStore: (any SQLStore)?
    let keys: ServerKeys
    /// The token-signing keys of every generation the key ring holds.
    let signingKeys: TokenSigningKeys
    /// The keys that seal secrets at rest, every generation the key ring holds.
    public let sealingKeys: SealingKeys
    /// Re-reads the key ring while the server runs; `nil` when the components have no data directory of their own
    /// (tests that pass keys in).
    public let keyRingReloader: KeyRingReloader?
    public let auth: AuthService
    let clock: any WallClock
    let logger: Logger
    /// Where clients reach this server.
    let origin: PublicOrigin
    let invitations: InvitationRepository
    /// Verifies DPoP proofs (shared replay cache, stateless nonces).
    let dpop: DPoPGuard
    /// The Gate: attestation challenges, App Attest keys and Gate tokens.
    let gate: GateService
    /// The Gate's streaming proxy.
    let gateProxy: GateProxy
    /// Enrollment, action and vault session tokens.
    let vaultTokens: VaultTokenService
    /// Vault enrollment.
    let enrollment: EnrollmentService
    /// Vault authentication.
    let vaultAuth: VaultAuthService
    /// Vault status, sync and deploy.
    let vaultLifecycle: VaultLifecycleService
    /// The NATS operator, system and application accounts.
    public let natsTrust: NATSTrust
    /// Builds the application account JWT (with revocations) from the store.
    public let natsAccountJWT: NATSAccountJWTBuilder
    /// Pushes account updates to nats-server; `nil` without `nats_url`.
    public let natsPublisher: NATSAccountPublisher?
    /// The devices' mailboxes and their relay (docs/protocol.md 7.5); `nil` without a nats-server or when turned off.
    public let mailbox: MailboxService?
    /// The devices' APNs tokens and wake pushes.
    let push: PushService
    /// Sends wake pushes (run as a service of the server's group); `nil` without `apns_key_file`.
    public let apnsProvider: APNSProvider?
    /// Members' passkeys: ceremonies, credentials, sign-in.
    let passkeys: PasskeyService
    /// NATS namespaces and tokens.
    let nats: NATSCredentialService
    /// The sealed sessions of this process, shared by its vault workers (told about revoked devices).
    let vaultSessions: VaultSessionService
    /// Records every vault handler call (run as a service of the server's group).
    public let vaultAccessLog: VaultAccessLog
    /// The vault workers this process runs (none without `nats_url`).
    public let vaultWorkers: [VaultWorker]
    /// The metrics `/metrics` renders.
    public let metrics: ServerMetrics

    /// Closes the store and the DPoP replay store (when it is a separate one). Nothing may use them afterwards.
    public func shutdownStores() async throws {
        try await store.shutdown()
        try await separateReplayStore?.shutdown()
    }

    /// Opens the store (SQLite file or PostgreSQL), migrates it, loads or creates the keys, and wires services.
    public static func make(
        configuration: ServerConfiguration, logger: Logger, clock: any WallClock = SystemWallClock()
    ) async throws -> ServerComponents {
        let keys = try ServerKeys.loadOrCreate(dataDirectory: configuration.dataDirectory, logger: logger)
        let rings = try KeyRingFile.load(dataDirectory: configuration.dataDirectory)
        let natsTrust = try NATSTrust.loadOrCreate(dataDirectory: configuration.dataDirectory, logger: logger)
        let store: any SQLStore
        // PostgreSQL keeps accepted DPoP proofs in the main database (nil: no store of their own).
        var replayStore: (any SQLStore)? = nil
        if let url = configuration.databaseURL {
            store = try PostgresStore(url: url, leaseTimeout: configuration.databaseLeaseTimeout, logger: logger)
        } else {
            store = try await SQLiteStore.open(path: configuration.sqlitePath, logger: logger)
            // Accepted DPoP proofs in a database of their own: its writes neither queue behind the main store's
            // single connection nor wait for an fsync (docs/security.md, "DPoP replay").
            replayStore = try await SQLiteStore.open(
                path: configuration.replaySQLitePath, durability: .normal, logger: logger)
        }
        return try await make(
            configuration: configuration, store: store, replayStore: replayStore, keys: keys, rings: rings,
            watchesKeyRing: true, natsTrust: natsTrust, logger: logger, clock: clock)
    }

    /// Wires services over an already-open store. Runs the migrations.
    /// - Parameters:
    ///   - configuration: The loaded configuration.
    ///   - store: The open SQL store (SQLite or PostgreSQL); migrated here.
    ///   - replayStore: Where accepted DPoP proofs are recorded; `nil` uses `store`.
    ///   - keys: The server's long-lived secrets.
    ///   - rings: The generations of the rotating keys (every family at generation 1 unless given).
    ///   - watchesKeyRing: Whether to re-read `<data-dir>/keys/keyring.json` while running (``KeyRingReloader``).
    ///   - natsTrust: The NATS operator and accounts; a fresh ephemeral chain unless given.
    ///   - logger: Where the services log.
    ///   - clock: The clock every service reads; tests inject a fixed or stepped one.
    public static func make(
        configuration: ServerConfiguration, store: any SQLStore, replayStore: (any SQLStore)? = nil, keys: ServerKeys,
        rings: KeyRings = .original, watchesKeyRing: Bool = false, natsTrust: NATSTrust = .ephemeral(), logger: Logger,
        clock: any WallClock = SystemWallClock()
    ) async throws -> ServerComponents {
        try await Migrator(store: store, logger: logger).migrate()
        try natsTrust.signingKeys.reload(rings[.natsSigning])
        if let replayStore { try await SQLDPoPReplayCache.prepareOwnStore(replayStore) }
        let metrics = ServerMetrics()
        let hasher = PasswordHasher(
            configuration: .init(
                parameters: configuration.argon2, maxConcurrentHashes: configuration.maxConcurrentHashes),
            metrics: metrics
        )
        let signingKeys = try await TokenSigningKeys.make(ring: rings[.tokenSigning], keys: keys)
        let tokens = TokenService(configuration: configuration.tokens, keys: signingKeys)
        var auth = AuthService(
            members: MemberRepository(store: store), sessions: SessionRepository(store: store), hasher: hasher,
            policy: configuration.passwordPolicy, tokens: tokens, limits: configuration.limits, clock: clock
        )
        let origin = PublicOrigin(configuration: configuration)
        let dpop = DPoPGuard(keys: keys, replayStore: replayStore ?? store, origin: origin, clock: clock)
        let gate = GateService(
            configuration: configuration.gate, store: store, signingKeys: signingKeys,
            issuer: configuration.tokens.issuer, clock: clock)
        let vaultTokens = VaultTokenService(keys: signingKeys, issuer: configuration.tokens.issuer)
        let invitations = InvitationRepository(store: store)
        let sealingKeys = SealingKeys(ring: rings[.atRest], keys: keys, clock: clock)
        let transactionKeys = TransactionKeyRepository(
            sealer: SecretSealer(keys: sealingKeys, purpose: "transaction-key-at-rest"))
        let keyring = CredentialKeyring(keys: keys, sealing: sealingKeys)
        var enrollment = EnrollmentService(
            configuration: configuration.vault, store: store, transactionKeys: transactionKeys,
            invitations: invitations,
            members: MemberRepository(store: store), attestation: gate.attestation, tokens: vaultTokens, hasher: hasher,
            policy: configuration.passwordPolicy, keyring: keyring, clock: clock,
            startLimiter: RateLimiter(rule: configuration.vault.enrollmentStartsPerIP, clock: clock))
        let vaultAuth = VaultAuthService(
            configuration: configuration.vault, store: store, transactionKeys: transactionKeys,
            attestedKeys: AttestedKeyRepository(store: store), attestation: gate.attestation, tokens: vaultTokens,
            hasher: hasher, keyring: keyring, clock: clock,
            actionLimiter: RateLimiter(rule: configuration.vault.actionsPerCredential, clock: clock))
        let natsAccountJWT = NATSAccountJWTBuilder(
            trust: natsTrust, store: store, clock: clock,
            mailboxStorage: configuration.nats.mailboxEnabled ? configuration.nats.mailboxMaxBytes : 0)
        let natsPublisher = try configuration.nats.url.map { url in
            try NATSAccountPublisher(
                url: url, caFile: configuration.nats.caFile, trust: natsTrust, builder: natsAccountJWT, logger: logger,
                metrics: metrics)
        }
        var vaultLifecycle = VaultLifecycleService(
            configuration: configuration.vault, store: store, transactionKeys: transactionKeys, clock: clock)
        // One table of sealed sessions for every vault worker of this process; a revoked device loses its sessions.
        let sessions = VaultWorkerPool.sessions(
            lifecycle: vaultLifecycle, signingKeys: signingKeys, clock: clock, metrics: metrics)
        let apnsProvider =
            try configuration.apns.isEnabled
            ? APNSProvider(
                configuration: configuration.apns,
                outcomes: PushTokenDropper(store: store, logger: logger), metrics: metrics, logger: logger,
                clock: clock) : nil
        let push = PushService(
            configuration: configuration.apns, provider: apnsProvider, store: store, clock: clock, metrics: metrics,
            logger: logger)
        let mailbox = try configuration.nats.url.flatMap { url in
            configuration.nats.mailboxEnabled
                ? try MailboxService(
                    url: url, configuration: configuration.nats, trust: natsTrust, store: store, clock: clock,
                    push: push, metrics: metrics, logger: logger) : nil
        }
        let dropSessions: DeviceRevocationObserver = { userID, deviceJKT in
            await sessions.deviceRevoked(memberGUID: userID.key, deviceThumbprint: deviceJKT)
            await mailbox?.deviceRevoked(userID: userID, deviceJKT: deviceJKT)
            await push.deviceGone(userID: userID, deviceJKT: deviceJKT)
        }
        vaultLifecycle.deviceRevoked = dropSessions
        enrollment.devicesRevoked = dropSessions
        // Signing out with a device's key ends that device's wake pushes.
        auth.signedOut = { userID, deviceJKT in await push.deviceGone(userID: userID, deviceJKT: deviceJKT) }
        let accessLog = VaultAccessLog(
            repository: VaultAccessLogRepository(store: store), clock: clock,
            logger: logger)
        return ServerComponents(
            configuration: configuration, store: store, separateReplayStore: replayStore, keys: keys,
            signingKeys: signingKeys, sealingKeys: sealingKeys,
            keyRingReloader: watchesKeyRing
                ? KeyRingReloader(
                    dataDirectory: configuration.dataDirectory, interval: configuration.keyReloadInterval,
                    tokenSigning: signingKeys, sealing: sealingKeys, natsSigning: natsTrust.signingKeys,
                    publisher: natsPublisher,
                    logger: logger) : nil,
            auth: auth,
            clock: clock, logger: logger,
            origin: origin, invitations: invitations, dpop: dpop, gate: gate,
            gateProxy: GateProxy(configuration: configuration.gate, tokens: gate.tokens, dpop: dpop),
            vaultTokens: vaultTokens, enrollment: enrollment, vaultAuth: vaultAuth,
            vaultLifecycle: vaultLifecycle,
            natsTrust: natsTrust, natsAccountJWT: natsAccountJWT, natsPublisher: natsPublisher, mailbox: mailbox,
            push: push, apnsProvider: apnsProvider,
            passkeys: PasskeyService(
                repository: PasskeyRepository(store: store), members: auth.members, auth: auth,
                configuration: configuration.passkeys, publicOrigin: origin, clock: clock),
            nats: NATSCredentialService(
                configuration: configuration.nats, trust: natsTrust, store: store, clock: clock,
                publisher: natsPublisher, mailbox: mailbox, logger: logger),
            vaultSessions: sessions,
            vaultAccessLog: accessLog,
            vaultWorkers: try VaultWorkerPool.make(
                configuration: configuration.nats, trust: natsTrust,
                services: VaultHandlerServices(
                    store: store, status: VaultWorkerPool.statusLookup(vaultLifecycle), clock: clock,
                    sealingKeys: sealingKeys, secretReadWindow: configuration.vault.secretReadWindow,
                    accessLog: accessLog),
                sessions: sessions, metrics: metrics, logger: logger),
            metrics: metrics
        )
    }
}
