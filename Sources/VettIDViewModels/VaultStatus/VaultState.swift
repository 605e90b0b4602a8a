// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDClient

/// What the vault status screen shows.
public enum VaultState: Sendable, Equatable {
    /// A status or sync request is running (also the state before the first ``VaultStatusViewModel/refresh()``).
    case loading
    /// The member has no vault credential: offer enrollment.
    case notEnrolled
    /// An enrollment is in progress.
    case pending
    /// Enrolled, not deployed yet; the details are the server's answer.
    case enrolled(VaultStatus)
    /// Deployed and serving; the details are the server's answer.
    case active(VaultStatus)
    /// The status could not be shown, or the vault reports an error. `retryable`: ``VaultStatusViewModel/retry()``
    /// can help (network trouble, a 5xx, a vault in `error`).
    case error(message: String, retryable: Bool)
    /// The member's session has ended (signed out, revoked elsewhere, or its refresh token expired): show the
    /// sign-in screen. Background refresh has stopped too (`VaultRefreshOutcome.signInRequired(_:)`).
    case signInRequired
}
