// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// The settings of vault enrollment and vault authentication.
///
/// Keys (docs/operations.md): `enrollment_require_attestation`, `enrollment_session_ttl_seconds`,
/// `vault_action_ttl_seconds`, `vault_session_ttl_seconds`, `vault_max_failed_attempts`,
/// `rate_limit_enroll_per_minute`, `rate_limit_action_per_minute`.
public struct VaultConfiguration: Sendable, Equatable {
    /// Whether a device must attest (App Attest, software root or development token) before it may set a
    /// password. Default true: an unattested device cannot enroll.
    public var requireAttestation: Bool
    /// How long an enrollment session stays open after `start` (default 30 minutes).
    public var enrollmentSessionLifetime: Duration
    /// How long an action token and its reserved transaction key stay valid (default 2 minutes).
    public var actionLifetime: Duration
    /// Lifetime of the vault session token returned by auth execute (default 15 minutes).
    public var sessionLifetime: Duration
    /// Failed authentications that lock a credential (default 3).
    public var maxFailedAttempts: Int
    /// Size of a device's transaction key pool (default 20).
    public var transactionKeyPoolSize: Int
    /// The pool is refilled to ``transactionKeyPoolSize`` when fewer unused keys than this remain (default 10).
    public var transactionKeyRefillThreshold: Int
    /// Enrollment starts per client IP.
    public var enrollmentStartsPerIP: RateLimiter.Rule
    /// Action requests per credential.
    public var actionsPerCredential: RateLimiter.Rule
    /// How recent a device's vault authentication must be for it to read a secret value (`secret.get`).
    public var secretReadWindow: Duration

    /// Creates a configuration with the documented defaults.
    public init(
        requireAttestation: Bool = true,
        enrollmentSessionLifetime: Duration = .seconds(30 * 60),
        actionLifetime: Duration = .seconds(120),
        sessionLifetime: Duration = .seconds(15 * 60),
        maxFailedAttempts: Int = 3,
        transactionKeyPoolSize: Int = 20,
        transactionKeyRefillThreshold: Int = 10,
        enrollmentStartsPerIP: RateLimiter.Rule = .init(capacity: 10, window: .seconds(60)),
        actionsPerCredential: RateLimiter.Rule = .init(capacity: 10, window: .seconds(60)),
        secretReadWindow: Duration = .seconds(300)
    ) {
        self.requireAttestation = requireAttestation
        self.enrollmentSessionLifetime = enrollmentSessionLifetime
        self.actionLifetime = actionLifetime
        self.sessionLifetime = sessionLifetime
        self.maxFailedAttempts = maxFailedAttempts
        self.transactionKeyPoolSize = transactionKeyPoolSize
        self.transactionKeyRefillThreshold = transactionKeyRefillThreshold
        self.enrollmentStartsPerIP = enrollmentStartsPerIP
        self.actionsPerCredential = actionsPerCredential
        self.secretReadWindow = secretReadWindow
    }
}
