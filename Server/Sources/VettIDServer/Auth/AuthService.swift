// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
import HTTPTypes
public import Logging
public import VettIDCore

/// Member registration, login, refresh, logout and request authentication.
///
/// Pure policy over the repositories, hasher, token service and rate limiters; the HTTP layer maps its
/// results and ``APIFailure``s onto the wire.
public struct AuthService: Sendable {
    /// Rate limits applied to the auth endpoints.
    public struct Limits: Sendable {
        /// Login and registration attempts per client IP.
        public var perIP: RateLimiter.Rule
        /// Failed logins for one account from one client IP before that client is refused for a while. A
        /// stranger who knows an email locks out only their own address.
        public var failedLoginsPerAccount: RateLimiter.Rule
        /// Failed logins for one account from all clients together (a distributed guessing ceiling). A login
        /// whose DPoP proof comes from a device key the member has signed in with before is exempt, so a
        /// member's own device is never locked out by strangers.
        public var failedLoginsPerAccountCeiling: RateLimiter.Rule

        public init(
            perIP: RateLimiter.Rule = .init(capacity: 30, window: .seconds(60)),
            failedLoginsPerAccount: RateLimiter.Rule = .init(capacity: 5, window: .seconds(300)),
            failedLoginsPerAccountCeiling: RateLimiter.Rule = .init(capacity: 100, window: .seconds(300))
        ) {
            self.perIP = perIP
            self.failedLoginsPerAccount = failedLoginsPerAccount
            self.failedLoginsPerAccountCeiling = failedLoginsPerAccountCeiling
        }
    }

    /// A successful login or refresh.
    public struct Issued: Sendable {
        public let member: Member
        public let session: MemberSession
        public let accessToken: String
        public let refreshToken: String
        public let tokenType: String
        public let expiresIn: Int
        public let refreshExpiresIn: Int
    }

    /// An authenticated request's member and session.
    public struct Authenticated: Sendable {
        public let member: Member
        public let session: MemberSession
    }

    let members: MemberRepository
    let sessions: SessionRepository
    let hasher: PasswordHasher
    let policy: PasswordPolicy
    let tokens: TokenService
    let clock: any WallClock
    let ipLimiter: RateLimiter
    let accountLimiter: RateLimiter
    let accountCeiling: RateLimiter
    let liveSessions: LiveSessionCache
    /// Where sign-ins, failed sign-ins, registrations and sign-outs are recorded for the member to see.
    let events: SecurityEventRepository
    /// Told when a member signs out of a session bound to a DPoP key (the member and the key's thumbprint): that
    /// device's wake pushes end (docs/protocol.md 7.6).
    var signedOut: @Sendable (_ memberID: UUID, _ deviceJKT: String) async -> Void = { _, _ in }

    public init(
        members: MemberRepository, sessions: SessionRepository, hasher: PasswordHasher, policy: PasswordPolicy,
        tokens: TokenService, limits: Limits, clock: any WallClock
    ) {
        self.members = members
        self.sessions = sessions
        self.hasher = hasher
        self.policy = policy
        self.tokens = tokens
        self.clock = clock
        self.ipLimiter = RateLimiter(rule: limits.perIP, clock: clock)
        self.accountLimiter = RateLimiter(rule: limits.failedLoginsPerAccount, clock: clock)
        self.accountCeiling = RateLimiter(rule: limits.failedLoginsPerAccountCeiling, clock: clock)
        self.liveSessions = LiveSessionCache(lifetime: tokens.configuration.sessionCacheLifetime.seconds)
        self.events = SecurityEventRepository(store: members.store)
    }

    /// Registers a member. Refuses an invalid email, a weak password or a taken email.
    public func register(
        email rawEmail: String, password: String, name: MemberName = MemberName(), origin: SecurityEvent.Origin,
        logger: Logger
    ) async throws -> Member {
        try limit(ip: origin.ip)
        let email: EmailAddress
        do { email = try EmailAddress(rawEmail) } catch {
            throw APIFailure(.badRequest, .invalidEmail, "the email address \(error.reason)")
        }
        if case .failure(let violation) = policy.check(password, userInputs: email.passwordHints) {
            throw APIFailure(
                .badRequest, .weakPassword, "the password does not meet the policy",
                reasons: violation.reasons, score: violation.score
            )
        }
        let hash = try await hasher.hash(password)
        guard
            let member = try await members.create(
                email: email.value, passwordHash: hash, firstName: name.first, lastName: name.last, now: clock.now())
        else {
            throw APIFailure(.conflict, .emailTaken, "an account with this email already exists")
        }
        try await events.record(
            SecurityEvent(
                memberID: member.id, kind: .registered, occurredAt: member.createdAt, origin: origin, detail: nil))
        logger.info("member registered", metadata: ["member_id": "\(member.id)"])
        return member
    }

    /// Checks credentials and opens a session. Unknown email and wrong password give the same answer.
    /// - Parameters:
    ///   - rawEmail: The email as typed.
    ///   - password: The password as typed; compared with the stored Argon2id hash, never kept.
    ///   - dpopJKT: The thumbprint of the request's DPoP proof key, when it carried one: the session is bound to it.
    ///   - origin: Where the request came from, for the rate limits and the security events.
    ///   - sessionLifetime: How long the session may last at most (the portal's sign-in: 12 hours); the
    ///     configured session and refresh lifetimes otherwise.
    ///   - knownClientOf: The member this client has provably signed in as before (the portal's signed
    ///     known-browser cookie); like a known DPoP key, it exempts the sign-in from the account-wide ceiling.
    ///   - logger: Where the outcome is logged (never the password).
    public func login(
        email rawEmail: String, password: String, dpopJKT: String?, origin: SecurityEvent.Origin,
        sessionLifetime: Duration? = nil, knownClientOf: UUID? = nil, logger: Logger
    ) async throws -> Issued {
        let clientIP = origin.ip
        try limit(ip: clientIP)
        let invalid = APIFailure(.unauthorized, .invalidCredentials, "the email or password is incorrect")
        guard let email = try? EmailAddress(rawEmail), password.utf8.count <= policy.maximumBytes else {
            try await hasher.verifyAgainstDummy(password)
            throw invalid
        }
        // Failures count per (account, client) and per account; see ``Limits``.
        let accountKey = "account:" + email.value
        let clientKey = accountKey + "|client:" + (clientIP ?? "unknown")
        if case .limited(let seconds) = accountLimiter.check(clientKey) {
            logger.notice("login refused: account rate limit for this client", metadata: ["retry_after": "\(seconds)"])
            throw APIFailure.rateLimited(retryAfter: seconds)
        }
        let member = try await members.find(email: email.value)
        if case .limited(let seconds) = accountCeiling.check(accountKey) {
            let knownDevice: Bool
            if let member, let knownClientOf, member.id == knownClientOf {
                knownDevice = true
            } else if let member, let dpopJKT {
                knownDevice = try await sessions.isKnownDevice(memberID: member.id, jkt: dpopJKT)
            } else {
                knownDevice = false
            }
            guard knownDevice else {
                logger.notice("login refused: account failure ceiling", metadata: ["retry_after": "\(seconds)"])
                throw APIFailure.rateLimited(retryAfter: seconds)
            }
        }
        func failed() {
            _ = accountLimiter.consume(clientKey)
            _ = accountCeiling.consume(accountKey)
        }
        guard let member else {
            try await hasher.verifyAgainstDummy(password)
            failed()
            throw invalid
        }
        let verdict = try await hasher.verify(password, against: member.passwordHash)
        guard verdict.matches else {
            failed()
            try await events.record(
                SecurityEvent(
                    memberID: member.id, kind: .loginFailed, occurredAt: clock.now(), origin: origin, detail: nil))
            logger.notice("login failed", metadata: ["member_id": "\(member.id)"])
            throw invalid
        }
        accountLimiter.reset(clientKey)
        if verdict.needsRehash {
            let newHash = try await hasher.hash(password)
            try await members.replacePasswordHash(
                id: member.id, old: member.passwordHash, new: newHash, now: clock.now())
            logger.info("password rehashed with current parameters", metadata: ["member_id": "\(member.id)"])
        }
        return try await openSession(
            for: member, dpopJKT: dpopJKT, origin: origin, sessionLifetime: sessionLifetime, method: "a password",
            logger: logger)
    }

    /// Opens a session for a member who proved who they are (a password or a passkey): the same session, tokens
    /// and security event whichever way they signed in.
    /// - Parameters:
    ///   - member: The member.
    ///   - dpopJKT: The thumbprint of the request's DPoP proof key, when it carried one: the session is bound to it.
    ///   - origin: Where the request came from.
    ///   - sessionLifetime: How long the session may last at most; the configured lifetimes otherwise.
    ///   - method: How they signed in, for the security event ("a password", "a passkey").
    ///   - logger: Where the sign-in is logged.
    func openSession(
        for member: Member, dpopJKT: String?, origin: SecurityEvent.Origin, sessionLifetime: Duration?,
        method: String, logger: Logger
    ) async throws -> Issued {
        let now = clock.now()
        let refresh = tokens.mintRefreshToken()
        let cap = sessionLifetime.map(\.seconds) ?? .infinity
        let session = try await sessions.create(
            memberID: member.id, dpopJKT: dpopJKT, refreshTokenHash: refresh.hash,
            refreshExpiresAt: now.addingTimeInterval(min(cap, tokens.configuration.refreshTokenLifetime.seconds)),
            sessionExpiresAt: now.addingTimeInterval(min(cap, tokens.configuration.sessionLifetime.seconds)), now: now
        )
        try await events.record(
            SecurityEvent(
                memberID: member.id, kind: .login, occurredAt: now, origin: origin,
                detail: "with \(method), " + (dpopJKT == nil ? "without a device key" : "with a device key")))
        logger.info(
            "member logged in",
            metadata: ["member_id": "\(member.id)", "session_id": "\(session.id)", "method": "\(method)"])
        return try await issue(member: member, session: session, refreshToken: refresh.token, now: now)
    }

    /// Rotates a refresh token. A reused token revokes its whole family.
    public func refresh(refreshToken: String, dpopJKT: String?, logger: Logger) async throws -> Issued {
        let invalid = APIFailure(.badRequest, .invalidGrant, "the refresh token is invalid, expired or already used")
        guard refreshToken.utf8.count <= 256 else { throw invalid }
        let now = clock.now()
        let next = tokens.mintRefreshToken()
        let outcome = try await sessions.rotate(
            presentedHash: TokenService.hash(refreshToken: refreshToken), nextHash: next.hash,
            nextExpiresAt: now.addingTimeInterval(tokens.configuration.refreshTokenLifetime.seconds), now: now
        )
        switch outcome {
        case .unknown, .sessionEnded:
            throw invalid
        case .reused(let sessionID):
            liveSessions.forget(sessionID: sessionID)
            logger.warning("refresh token reused: session revoked", metadata: ["session_id": "\(sessionID)"])
            throw invalid
        case .rotated(let session):
            if let bound = session.dpopJKT, bound != dpopJKT {
                // A session bound to a device key only refreshes with a proof by that key (RFC 9449 §5).
                try await sessions.revoke(id: session.id, reason: "refresh_without_bound_key", now: now)
                liveSessions.forget(sessionID: session.id)
                throw APIFailure(.badRequest, .invalidGrant, "the refresh token is bound to a DPoP key")
            }
            guard let member = try await members.find(id: session.memberID) else { throw invalid }
            return try await issue(member: member, session: session, refreshToken: next.token, now: now)
        }
    }

    /// Ends a session: its refresh tokens and access tokens stop working at once.
    public func logout(_ authenticated: Authenticated, origin: SecurityEvent.Origin, logger: Logger) async throws {
        let now = clock.now()
        try await sessions.revoke(id: authenticated.session.id, reason: "logout", now: now)
        liveSessions.forget(sessionID: authenticated.session.id)  // before anything else can fail
        if let jkt = authenticated.session.dpopJKT { await signedOut(authenticated.member.id, jkt) }
        try await events.record(
            SecurityEvent(
                memberID: authenticated.member.id, kind: .logout, occurredAt: now, origin: origin, detail: nil))
        logger.info("member logged out", metadata: ["session_id": "\(authenticated.session.id)"])
    }

    /// Authenticates an access token: signature, expiry, and a live session.
    public func authenticate(accessToken: String) async throws -> (Authenticated, boundJKT: String?) {
        let now = clock.now()
        guard let verified = await tokens.verifyAccessToken(accessToken, now: now) else {
            throw APIFailure.invalidToken()
        }
        if let known = liveSessions.lookup(sessionID: verified.sessionID, now: now),
            known.member.id == verified.memberID
        {
            return (Authenticated(member: known.member, session: known.session), verified.boundJKT)
        }
        guard let session = try await sessions.find(id: verified.sessionID), session.isActive(at: now),
            session.memberID == verified.memberID, let member = try await members.find(id: verified.memberID)
        else { throw APIFailure.invalidToken() }
        liveSessions.remember(session: session, member: member, now: now)
        return (Authenticated(member: member, session: session), verified.boundJKT)
    }

    /// Authenticates a session by its id (the portal's signed cookie names one): it must exist and be live. Uses
    /// the same short cache as ``authenticate(accessToken:)``, so an end of the session takes effect at once here
    /// and within the cache's lifetime on other instances.
    func authenticate(sessionID: UUID) async throws -> Authenticated {
        let now = clock.now()
        if let known = liveSessions.lookup(sessionID: sessionID, now: now) {
            return Authenticated(member: known.member, session: known.session)
        }
        guard let session = try await sessions.find(id: sessionID), session.isActive(at: now),
            let member = try await members.find(id: session.memberID)
        else { throw APIFailure.invalidToken() }
        liveSessions.remember(session: session, member: member, now: now)
        return Authenticated(member: member, session: session)
    }

    private func issue(member: Member, session: MemberSession, refreshToken: String, now: Date) async throws -> Issued {
        let access = try await tokens.issueAccessToken(
            memberID: member.id, sessionID: session.id, boundJKT: session.dpopJKT, now: now
        )
        return Issued(
            member: member, session: session, accessToken: access, refreshToken: refreshToken,
            tokenType: session.dpopJKT == nil ? "Bearer" : "DPoP",
            expiresIn: Int(tokens.configuration.accessTokenLifetime.seconds),
            refreshExpiresIn: Int(tokens.configuration.refreshTokenLifetime.seconds)
        )
    }

    /// Counts a request against the per-IP limit of sign-ins (password or passkey) and registrations.
    func limit(ip: String?) throws {
        guard let ip else { return }
        if case .limited(let seconds) = ipLimiter.consume("ip:" + ip) {
            throw APIFailure.rateLimited(retryAfter: seconds)
        }
    }
}
