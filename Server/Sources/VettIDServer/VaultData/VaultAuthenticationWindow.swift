// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import VettIDCore
import VettIDMessaging

/// Whether a device authenticated to the member's vault (action request + auth execute, docs/protocol.md §5) recently
/// enough to read a secret value: within ``window`` of now.
struct VaultAuthenticationWindow: Sendable {
    /// The default window: 5 minutes.
    static let defaultWindow: Duration = .seconds(300)

    let store: any SQLStore
    let window: Duration
    let clock: any WallClock
    private let actions = VaultActionRepository()

    init(store: any SQLStore, window: Duration = Self.defaultWindow, clock: any WallClock) {
        self.store = store
        self.window = window
        self.clock = clock
    }

    /// Passes when `deviceThumbprint` authenticated to `memberID`'s vault within the window.
    /// - Throws: `VaultMessageError` `vault_authentication_required` otherwise (also for a plaintext request, which
    ///   names no device); store errors.
    func require(memberID: String, deviceThumbprint: String?) async throws {
        let refused = VaultMessageError(
            .vaultAuthenticationRequired,
            "reading a secret needs a vault authentication of this device in the last \(window.components.seconds) s")
        guard let deviceThumbprint else { throw refused }
        let last = try await store.withDatabase { db in
            try await actions.lastAuthentication(memberID: memberID, deviceJKT: deviceThumbprint, on: db)
        }
        guard let last, clock.unixSeconds() - last <= window.components.seconds else { throw refused }
    }
}
