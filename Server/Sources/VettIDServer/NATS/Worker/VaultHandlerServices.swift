// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

// What the server gives the vault handlers it runs, and the list of those handlers.

/// What a server offers the vault handlers it runs: each handler takes the parts it uses when the server makes it
/// (``VaultHandlerRegistry/serverHandlers``). A handler that needs a repository builds it over ``store``.
public struct VaultHandlerServices: Sendable {
    /// The server's SQL store.
    public let store: any SQLStore
    /// A member's vault status by GUID.
    public let status: VaultRequestProcessor.StatusLookup
    /// The server's clock.
    public let clock: any WallClock

    /// - Parameters:
    ///   - store: The server's SQL store.
    ///   - status: Looks up a member's vault status by GUID.
    ///   - clock: The server's clock.
    public init(store: any SQLStore, status: @escaping VaultRequestProcessor.StatusLookup, clock: any WallClock) {
        self.store = store
        self.status = status
        self.clock = clock
    }
}

extension VaultHandlerRegistry {
    /// Makes one of a server's handlers from the services it needs.
    public typealias Entry = @Sendable (VaultHandlerServices) -> any VaultHandler

    /// The handlers a server's vault workers run, in the order of the event types they publish.
    ///
    /// A new handler is its own file (a ``VaultHandler``) and one line here that makes it from what it needs.
    public static let serverHandlers: [Entry] = [
        { _ in EchoVaultHandler() },
        { services in VaultInfoHandler(status: services.status) },
    ]

    /// The registry of ``serverHandlers`` made from `services`.
    ///
    /// - Throws: ``VaultWorkerError`` when two of them share an id or an id is not 1 to 128 bytes.
    public static func server(_ services: VaultHandlerServices) throws(VaultWorkerError) -> VaultHandlerRegistry {
        try VaultHandlerRegistry(serverHandlers.map { $0(services) })
    }
}
