// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Operator mode for tests: operator, system account, application account and users generated and signed with
// VettIDCrypto, resolved by nats-server's MEMORY resolver.

import Foundation
import NATSClient
import NIOCore
public import VettIDCrypto

/// Operator mode with a MEMORY resolver: operator, system account, application account and users all
/// generated and signed with VettIDCrypto. ``configuration`` preloads both account JWTs;
/// ``pushAccountUpdate(to:claims:)`` replaces the application account at runtime through the system account (how a
/// revocation reaches nats-server).
public struct OperatorSetup: Sendable {
    /// The nats-server configuration lines (`operator`, `system_account`, `resolver: MEMORY`, `resolver_preload`).
    public let configuration: String
    /// The application account key (signs user JWTs).
    public let account: NKeyPair
    /// The application account JWT that is preloaded.
    public let accountJWT: String
    /// The application account claims that are preloaded.
    public let accountClaims: NATSAccountClaims
    /// The operator key (signs account JWTs).
    public let operatorKey: NKeyPair
    /// The system account key.
    public let system: NKeyPair

    public init(accountClaims: NATSAccountClaims = NATSAccountClaims()) throws {
        let now = Int64(Date().timeIntervalSince1970)
        let operatorKey = NKeyPair.generate(.operator)
        let system = NKeyPair.generate(.account)
        let account = NKeyPair.generate(.account)
        self.operatorKey = operatorKey
        self.system = system
        self.account = account
        self.accountClaims = accountClaims
        let operatorJWT = try NATSJWT.encode(
            NATSOperatorJWTClaims(
                subject: operatorKey.publicKey,
                name: "test-operator",
                nats: NATSOperatorClaims(systemAccount: system.publicKey)
            ),
            signedBy: operatorKey,
            now: now
        )
        let systemJWT = try NATSJWT.encode(
            NATSAccountJWTClaims(subject: system.publicKey, name: "SYS", nats: NATSAccountClaims()),
            signedBy: operatorKey,
            now: now
        )
        accountJWT = try NATSJWT.encode(
            NATSAccountJWTClaims(subject: account.publicKey, name: "APP", nats: accountClaims),
            signedBy: operatorKey,
            now: now
        )
        configuration = """
            operator: \(operatorJWT)
            system_account: \(system.publicKey)
            resolver: MEMORY
            resolver_preload: {
              \(system.publicKey): \(systemJWT)
              \(account.publicKey): \(accountJWT)
            }
            """
    }

    /// A user of the application account: its JWT and NKey seed.
    public func user(_ claims: NATSUserClaims = NATSUserClaims(), expires: Int64? = nil) throws -> (
        jwt: String, seed: String
    ) {
        let user = try userWithKey(claims, expires: expires)
        return (user.jwt, user.seed)
    }

    /// A user of the application account with its public key (for revocations).
    public func userWithKey(
        _ claims: NATSUserClaims = NATSUserClaims(), expires: Int64? = nil
    ) throws -> (jwt: String, seed: String, publicKey: String) {
        let user = NKeyPair.generate(.user)
        let jwt = try NATSJWT.encode(
            NATSUserJWTClaims(subject: user.publicKey, name: "user", expires: expires, nats: claims),
            signedBy: account,
            now: Int64(Date().timeIntervalSince1970)
        )
        return (jwt, try user.encodedSeed(), user.publicKey)
    }

    /// A user of the system account (for `$SYS` requests).
    public func systemUser() throws -> (jwt: String, seed: String) {
        let user = NKeyPair.generate(.user)
        let jwt = try NATSJWT.encode(
            NATSUserJWTClaims(subject: user.publicKey, name: "sys-user", nats: NATSUserClaims()),
            signedBy: system,
            now: Int64(Date().timeIntervalSince1970)
        )
        return (jwt, try user.encodedSeed())
    }

    /// Sends new application account claims (for example with ``NATSAccountClaims/revocations``) to the server at
    /// `url` as a system user (`$SYS.REQ.ACCOUNT.<key>.CLAIMS.UPDATE`) and waits for nats-server to accept them.
    /// The JWT is issued a second after now, so it is newer than the preloaded one.
    public func pushAccountUpdate(to url: String, claims: NATSAccountClaims) async throws {
        let jwt = try NATSJWT.encode(
            NATSAccountJWTClaims(subject: account.publicKey, name: "APP", nats: claims),
            signedBy: operatorKey,
            now: Int64(Date().timeIntervalSince1970) + 1
        )
        let sys = try systemUser()
        let client = try NATSClient(
            configuration: NATSClient.Configuration(
                servers: [url], auth: .jwt(sys.jwt, seed: sys.seed), reconnect: .disabled))
        try await client.connect()
        defer { Task { await client.close() } }
        let reply = try await client.request(
            ByteBuffer(string: jwt), to: "$SYS.REQ.ACCOUNT.\(account.publicKey).CLAIMS.UPDATE", timeout: .seconds(5))
        let body = JSONValue.parse(reply.payload.readableBytesView)
        guard body?["data"]?["code"]?.int64Value == 200 else {
            throw NATSServerProcess.SkipError(
                "nats-server refused the account update: \(String(buffer: reply.payload))")
        }
    }
}
