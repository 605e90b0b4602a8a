// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
public import Logging
import VettIDCore
public import VettIDCrypto
public import VettIDMessaging

/// The NATS trust chain this server owns: an operator, a system account and the application account that
/// signs every member's user JWTs.
///
/// Generated on first run in `<data-dir>/nats/trust.json` (mode 0600, directory 0700) and never logged. The
/// operator and system account JWTs are derived from the seeds and the creation time, so rendering the
/// nats-server configuration twice gives the same file. The application account JWT changes whenever a
/// token is revoked; ``applicationAccountJWT(revocations:issuedAt:mailboxStorage:)`` builds it from the store's state.
public struct NATSTrust: Sendable {
    /// Signs the account JWTs.
    public let operatorKey: NKeyPair
    /// The system account: the server's own connection publishes account updates through it.
    public let systemAccount: NKeyPair
    /// The application account: every member's user JWT is signed by it.
    public let applicationAccount: NKeyPair
    /// When the trust was generated (unix seconds): the `iat` of the operator and system account JWTs.
    public let createdAt: Int64
    /// The application account's signing keys over time (the `nats-signing` key ring); every copy of this trust
    /// shares them, so a reload reaches every service that issues user JWTs.
    public let signingKeys: NATSSigningKeys

    /// Limits of the application account, explicit: unlimited connections and subscriptions, 1 MiB payloads,
    /// no leaf nodes, no imports or exports; JetStream with `mailboxStorage` bytes of file storage (none when 0),
    /// no memory storage, one stream (the mailbox, docs/protocol.md 7.5) and any number of consumers.
    public static func applicationLimits(mailboxStorage: Int64) -> NATSAccountLimits {
        var limits = NATSAccountLimits(
            subscriptions: -1, data: -1, payload: 1 << 20, imports: 0, exports: 0, wildcardExports: false,
            connections: -1, leafNodeConnections: 0)
        if mailboxStorage != 0 {
            limits.jetStreamDiskStorage = mailboxStorage
            limits.jetStreamStreams = 1
            limits.jetStreamConsumers = -1
            limits.jetStreamMaxAckPending = -1
        }
        return limits
    }

    /// The application account's JetStream file storage when nothing else is configured: 1 GiB.
    public static let defaultMailboxStorage: Int64 = 1 << 30

    /// Limits of every member's user: 100 subscriptions, unlimited data, 1 MiB payloads.
    public static let userSubscriptionLimit: Int64 = 100
    public static let userPayloadLimit: Int64 = 1 << 20

    public init(operatorKey: NKeyPair, systemAccount: NKeyPair, applicationAccount: NKeyPair, createdAt: Int64) {
        self.operatorKey = operatorKey
        self.systemAccount = systemAccount
        self.applicationAccount = applicationAccount
        self.createdAt = createdAt
        self.signingKeys = NATSSigningKeys(account: applicationAccount)
    }

    /// A fresh trust chain held only in memory (tests, benchmarks).
    public static func ephemeral(now: Int64 = Int64(Date().timeIntervalSince1970)) -> NATSTrust {
        NATSTrust(
            operatorKey: .generate(.operator), systemAccount: .generate(.account),
            applicationAccount: .generate(.account), createdAt: now)
    }

    private struct Stored: Codable {
        var operator_seed: String
        var system_account_seed: String
        var application_account_seed: String
        var created_at: Int64
    }

    /// Loads `<dataDirectory>/nats/trust.json`, generating it on first run.
    public static func loadOrCreate(dataDirectory: String, logger: Logger) throws -> NATSTrust {
        let directory = dataDirectory + "/nats"
        try SecretFile.ensureDirectory(dataDirectory)
        try SecretFile.ensureDirectory(directory)
        let path = directory + "/trust.json"
        if let bytes = try SecretFile.read(path) {
            do {
                let stored = try JSONDecoder().decode(Stored.self, from: Data(bytes))
                let trust = NATSTrust(
                    operatorKey: try NKeyPair(seed: stored.operator_seed),
                    systemAccount: try NKeyPair(seed: stored.system_account_seed),
                    applicationAccount: try NKeyPair(seed: stored.application_account_seed),
                    createdAt: stored.created_at)
                guard trust.operatorKey.type == .operator, trust.systemAccount.type == .account,
                    trust.applicationAccount.type == .account
                else { throw SecretFile.Failure(path: path, reason: "a seed has the wrong key type") }
                return trust
            } catch let failure as SecretFile.Failure {
                throw failure
            } catch {
                throw SecretFile.Failure(path: path, reason: "not a NATS trust file (\(type(of: error)))")
            }
        }
        let trust = ephemeral()
        let stored = Stored(
            operator_seed: try trust.operatorKey.encodedSeed(),
            system_account_seed: try trust.systemAccount.encodedSeed(),
            application_account_seed: try trust.applicationAccount.encodedSeed(), created_at: trust.createdAt)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try SecretFile.write(Array(try encoder.encode(stored)), to: path)
        logger.notice(
            "generated NATS operator, system and application accounts",
            metadata: [
                "path": "\(path)", "operator": "\(trust.operatorKey.publicKey)",
                "application_account": "\(trust.applicationAccount.publicKey)",
            ])
        return trust
    }

    /// The self-signed operator JWT naming the system account.
    public func operatorJWT() throws -> String {
        try NATSJWT.encode(
            NATSOperatorJWTClaims(
                subject: operatorKey.publicKey, name: "vettid",
                nats: NATSOperatorClaims(systemAccount: systemAccount.publicKey)),
            signedBy: operatorKey, now: createdAt)
    }

    /// The system account JWT.
    public func systemAccountJWT() throws -> String {
        try NATSJWT.encode(
            NATSAccountJWTClaims(subject: systemAccount.publicKey, name: "SYS", nats: NATSAccountClaims()),
            signedBy: operatorKey, now: createdAt)
    }

    /// The application account JWT with `revocations` (user key → unix time), `iat` = `issuedAt` and
    /// `mailboxStorage` bytes of JetStream file storage (0: no JetStream).
    ///
    /// Each update must carry a larger `iat` than the one before it (the store hands out increasing ones), so
    /// nats-server's full resolver never keeps an older revocation list over a newer one.
    public func applicationAccountJWT(
        revocations: [String: Int64], issuedAt: Int64, mailboxStorage: Int64 = defaultMailboxStorage
    ) throws -> String {
        var claims = NATSAccountJWTClaims(
            subject: applicationAccount.publicKey, name: "VETTID",
            nats: NATSAccountClaims(
                limits: Self.applicationLimits(mailboxStorage: mailboxStorage),
                signingKeys: signingKeys.accountSigningKeys, revocations: revocations))
        claims.issuedAt = issuedAt
        return try NATSJWT.encode(claims, signedBy: operatorKey, now: issuedAt)
    }

    /// A user of the application account with exactly `permissions`, a fresh user NKey, and explicit limits,
    /// signed by the account signing key current at `issuedAt` (``NATSSigningKeys``).
    public func userCredentials(
        name: String, permissions: NatsPermissionSet, issuedAt: Int64, expiresAt: Int64?
    ) throws -> NATSUserCredentials {
        let user = NKeyPair.generate(.user)
        var claims = NATSUserJWTClaims(
            subject: user.publicKey, name: name, expires: expiresAt,
            nats: NATSUserClaims(
                permissions: NATSClaimPermissions(
                    publish: Self.exactly(permissions.publish), subscribe: Self.exactly(permissions.subscribe),
                    response: permissions.mayReply ? Self.presenceReply : nil),
                maxSubscriptions: Self.userSubscriptionLimit, maxData: -1, maxPayload: Self.userPayloadLimit))
        claims.issuedAt = issuedAt
        let (issuer, issuerAccount) = signingKeys.issuer(at: issuedAt)
        claims.nats.issuerAccount = issuerAccount
        let jwt = try NATSJWT.encode(claims, signedBy: issuer, now: issuedAt)
        return NATSUserCredentials(jwt: jwt, seed: try user.encodedSeed(), publicKey: user.publicKey)
    }

    /// The `resp` of a user that may answer presence questions: one reply per request, within 5 seconds.
    static let presenceReply = NATSResponsePermission(maxMessages: 1, expiresNanoseconds: 5_000_000_000)

    /// Allows exactly `subjects`. An empty allow list is omitted from the JWT, which nats-server reads as "no
    /// restriction"; an empty list here means "nothing", so it becomes a deny of every subject.
    static func exactly(_ subjects: [String]) -> NATSPermission {
        subjects.isEmpty ? NATSPermission(deny: [">"]) : NATSPermission(allow: subjects)
    }

    /// A short-lived user of the system account, for the server's own account-update connection.
    public func systemUserCredentials(now: Int64, lifetime: Int64 = 24 * 3600) throws -> NATSUserCredentials {
        let user = NKeyPair.generate(.user)
        var claims = NATSUserJWTClaims(
            subject: user.publicKey, name: "vettid-server", expires: now + lifetime, nats: NATSUserClaims())
        claims.issuedAt = now
        let jwt = try NATSJWT.encode(claims, signedBy: systemAccount, now: now)
        return NATSUserCredentials(jwt: jwt, seed: try user.encodedSeed(), publicKey: user.publicKey)
    }
}

/// A user JWT, its secret seed and its public key.
public struct NATSUserCredentials: Sendable, CustomStringConvertible {
    public let jwt: String
    /// Secret.
    public let seed: String
    public let publicKey: String

    /// The standard `.creds` text (secret).
    public var creds: String { NATSCredsFile(jwt: jwt, seed: seed).formatted }

    /// Never prints the seed.
    public var description: String { "NATSUserCredentials(\(publicKey), seed: <redacted>)" }
}
