// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The two ChaCha20-Poly1305 keys of an established session.

/// The per-direction keys of a session: `k_a2v` seals requests, `k_v2a` seals responses.
///
/// Never logged: ``description`` shows nothing of them.
public struct SessionKeys: Sendable, Hashable, CustomStringConvertible {
    /// `k_a2v`, 32 bytes.
    public let appToVault: [UInt8]
    /// `k_v2a`, 32 bytes.
    public let vaultToApp: [UInt8]

    /// Wraps two 32-byte keys (from ``SessionKeySchedule``).
    init(appToVault: [UInt8], vaultToApp: [UInt8]) {
        precondition(appToVault.count == 32 && vaultToApp.count == 32, "session keys are 32 bytes")
        self.appToVault = appToVault
        self.vaultToApp = vaultToApp
    }

    /// `SessionKeys(…)`, without key material.
    public var description: String { "SessionKeys(…)" }
}
