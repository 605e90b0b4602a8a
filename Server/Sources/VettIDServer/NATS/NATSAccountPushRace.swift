// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// When an account push may have raced another instance's inside nats-server, and the one re-push that settles it.

/// Decides whether a push of the application account JWT may have raced a push by another server instance.
///
/// nats-server's full resolver keeps the JWT with the newest `iat`, but it compares before it takes the lock that
/// guards the write (`DirJWTStore.saveIfNewer`): two updates arriving at one node at the same moment (one from a
/// client, one relayed by another node of the cluster) can both pass the comparison, and the older can be written
/// last. Two instances revoking at once then leave some nodes on a JWT without the other's revocation until the
/// next reconcile (``NATSAccountPublisher/reconcileInterval``). The instance that sees the risk pushes the current
/// JWT once more after a short random delay, when the other push has settled; that re-push decides nothing
/// further, so two instances never trade re-pushes.
struct NATSAccountPushRace: Sendable, Equatable {
    /// How recent another instance's update must be to count as concurrent (seconds of `iat`).
    static let window: Int64 = 5

    /// The `iat` this push carried.
    let issuedAt: Int64
    /// The counter's value before this push took its `iat` (another instance's or this one's last).
    let previousIssuedAt: Int64
    /// The counter's value once this push was answered.
    let latestIssuedAt: Int64
    /// The `iat` of this instance's previous push, if any.
    let lastOwnIssuedAt: Int64?

    /// Whether to push once more: another instance issued an update just before this one (it may still be on its
    /// way through the cluster), or after it (its push may have crossed this one).
    var isSuspected: Bool {
        let otherJustBefore =
            previousIssuedAt != 0 && previousIssuedAt != lastOwnIssuedAt
            && previousIssuedAt >= issuedAt - Self.window
        return otherJustBefore || latestIssuedAt > issuedAt
    }
}
