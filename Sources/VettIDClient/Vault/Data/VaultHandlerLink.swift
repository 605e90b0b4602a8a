// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Where the vault's data clients find the connection that runs their handlers.

import Foundation
import VettIDCore
public import VettIDMessaging

/// The connection a ``VaultService``'s ``VaultService/secrets`` and ``VaultService/profile`` run their handlers
/// over. `vettid.natsManager()` (VettIDNats) attaches its manager here, so an app that made one uses the vault's data
/// with no further set-up; a test attaches any `VaultHandlerCalling`.
public final class VaultHandlerLink: @unchecked Sendable {
    // Guarded by `lock`: attached synchronously, so a call right after `natsManager()` finds the manager.
    private var caller: (any VaultHandlerCalling)?
    private let lock = NSLock()

    public init() {}

    /// Makes `caller` the connection of every data client of this vault (replacing any before).
    public func attach(_ caller: any VaultHandlerCalling) {
        lock.withLock { self.caller = caller }
    }

    /// Detaches the connection: data calls fail with `vault_unavailable` until one is attached again.
    public func detach() {
        lock.withLock { caller = nil }
    }

    /// The attached connection.
    /// - Throws: `VaultMessageError` `vault_unavailable` when none is attached.
    func current() throws(VaultMessageError) -> any VaultHandlerCalling {
        guard let caller = lock.withLock({ caller }) else {
            throw VaultMessageError(
                .unavailable, "the vault's messaging is not set up: make a manager with vettid.natsManager()")
        }
        return caller
    }

    /// Runs `operation` over the attached connection.
    func call<Operation: VaultOperation>(_ operation: Operation.Type, _ request: Operation.Request)
        async throws(VaultMessageError) -> Operation.Result
    {
        try await current().call(operation, request)
    }
}
