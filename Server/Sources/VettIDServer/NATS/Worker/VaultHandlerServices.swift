// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore
public import VettIDMessaging

// What the server gives the vault handlers it runs, and the list of those handlers.

/// What a server offers the vault handlers it runs: each handler takes the parts it uses when the server makes it
/// (``VaultHandlerRegistry/serverHandlers``), building its repositories over ``store``.
public struct VaultHandlerServices: Sendable {
    /// The server's SQL store.
    public let store: any SQLStore
    /// A member's vault status by GUID.
    public let status: VaultRequestProcessor.StatusLookup
    /// The server's clock.
    public let clock: any WallClock
    /// The at-rest keys that wrap each member's data key.
    public let sealingKeys: SealingKeys
    /// The bounds of a member's secrets and profile.
    public let limits: VaultDataLimits
    /// How recent a device's vault authentication must be for it to read a secret value.
    public let secretReadWindow: Duration
    /// Where every handler call is recorded (`nil`: not recorded, for tests of other parts).
    public let accessLog: VaultAccessLog?

    /// - Parameters:
    ///   - store: The server's SQL store.
    ///   - status: Looks up a member's vault status by GUID.
    ///   - clock: The server's clock.
    ///   - sealingKeys: The at-rest keys.
    ///   - limits: The bounds of a member's data (default `VaultDataLimits.standard`).
    ///   - secretReadWindow: How recent a vault authentication must be to read a secret (default 5 minutes).
    ///   - accessLog: Where handler calls are recorded.
    public init(
        store: any SQLStore, status: @escaping VaultRequestProcessor.StatusLookup, clock: any WallClock,
        sealingKeys: SealingKeys, limits: VaultDataLimits = .standard, secretReadWindow: Duration = .seconds(300),
        accessLog: VaultAccessLog? = nil
    ) {
        self.store = store
        self.status = status
        self.clock = clock
        self.sealingKeys = sealingKeys
        self.limits = limits
        self.secretReadWindow = secretReadWindow
        self.accessLog = accessLog
    }

    var secrets: VaultSecretRepository { VaultSecretRepository(store: store, keys: sealingKeys, limits: limits) }
    var profiles: VaultProfileRepository { VaultProfileRepository(store: store, keys: sealingKeys, limits: limits) }
    var authentication: VaultAuthenticationWindow {
        VaultAuthenticationWindow(store: store, window: secretReadWindow, clock: clock)
    }
}

extension VaultHandlerRegistry {
    /// Makes one of a server's handlers from the services it needs.
    public typealias Entry = @Sendable (VaultHandlerServices) -> any VaultHandler

    /// The handlers a server's vault workers run, in the order of the event types they publish.
    ///
    /// A new handler is its own file (a ``VaultOperationHandler`` for an operation defined in VettIDMessaging) and
    /// one line here that makes it from what it needs.
    public static let serverHandlers: [Entry] = [
        { _ in EchoVaultHandler() },
        { services in VaultInfoHandler(status: services.status) },
        { services in SecretPutHandler(secrets: services.secrets, clock: services.clock) },
        { services in SecretGetHandler(secrets: services.secrets, authentication: services.authentication) },
        { services in SecretListHandler(secrets: services.secrets) },
        { services in SecretDeleteHandler(secrets: services.secrets) },
        { services in ProfileGetHandler(profiles: services.profiles) },
        { services in ProfileUpdateHandler(profiles: services.profiles, clock: services.clock) },
    ]

    /// The registry of ``serverHandlers`` made from `services`, recording calls in its access log.
    ///
    /// - Throws: ``VaultWorkerError`` when two of them share an id or an id is not 1 to 128 bytes.
    public static func server(_ services: VaultHandlerServices) throws(VaultWorkerError) -> VaultHandlerRegistry {
        try VaultHandlerRegistry(
            serverHandlers.map { $0(services) }, accessLog: services.accessLog, clock: services.clock)
    }
}
