// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import NIOConcurrencyHelpers
import VettIDVerification

/// The replay cache the server uses: ``DPoPReplayWindows`` in memory in front of a shared store.
///
/// - `contains` (the verifier's pre-check before the signature) answers from memory only: no database round trip.
/// - `insert` refuses a proof this instance already accepted from memory; otherwise the shared store decides
///   (one `INSERT … ON CONFLICT` round trip), so a proof accepted by another instance, or before a restart, is
///   still refused. A proof the store refuses, or cannot record, is refused (fail closed).
struct LayeredDPoPReplayCache: DPoPReplayCache {
    let backend: any DPoPReplayCache
    private let windows: NIOLockedValueBox<DPoPReplayWindows>

    init(backend: any DPoPReplayCache, windows: DPoPReplayWindows = DPoPReplayWindows()) {
        self.backend = backend
        self.windows = NIOLockedValueBox(windows)
    }

    func contains(_ key: DPoPReplayKey, now: Date) async -> Bool {
        windows.withLockedValue { $0.contains(key, now: now) }
    }

    func insert(_ key: DPoPReplayKey, expiresAt: Date, now: Date) async -> Bool {
        guard windows.withLockedValue({ $0.insert(key, expiresAt: expiresAt, now: now) }) else { return false }
        // Remembered in memory even when the store refuses: it is a replay (or unrecordable) either way, and
        // refusing the next copy from memory saves the round trip.
        return await backend.insert(key, expiresAt: expiresAt, now: now)
    }
}
