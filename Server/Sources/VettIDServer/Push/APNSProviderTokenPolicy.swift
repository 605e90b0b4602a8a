// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// When the APNs provider token is replaced: a pure decision over the token's `iat` and the time now.
///
/// Apple refuses a token whose `iat` is more than an hour old (403 `ExpiredProviderToken`) and answers 429
/// `TooManyProviderTokenUpdates` to a provider that changes its token more often than every 20 minutes. So a token
/// is kept for ``refreshInterval`` (clamped into 20...55 minutes) and replaced on the first push after that, never
/// per request.
struct APNSProviderTokenPolicy: Sendable, Equatable {
    /// Apple's shortest interval between token changes.
    static let minimumInterval: Duration = .seconds(20 * 60)
    /// The longest interval this policy allows: five minutes below Apple's hour, for clock skew.
    static let maximumInterval: Duration = .seconds(55 * 60)

    /// How long a token is used.
    let refreshInterval: Duration

    /// A policy that replaces tokens after `refreshInterval`, clamped into 20...55 minutes.
    init(refreshInterval: Duration = .seconds(40 * 60)) {
        self.refreshInterval = min(max(refreshInterval, Self.minimumInterval), Self.maximumInterval)
    }

    /// Whether a token issued at `issuedAt` (Unix seconds; `nil`: there is none) must be replaced at `now`
    /// (Unix seconds). A token from the future (the clock was set back by more than a minute) is replaced too.
    func needsNewToken(issuedAt: Int64?, now: Int64) -> Bool {
        guard let issuedAt else { return true }
        let age = now - issuedAt
        return age >= refreshInterval.components.seconds || age < -60
    }

    /// Whether a token that APNs called expired may be replaced: only while it is still the one in use, so many
    /// pushes refused at once with the same token cause one new token, not one each.
    func mayReplaceRejected(rejectedSerial: Int, currentSerial: Int?) -> Bool { currentSerial == rejectedSerial }
}
