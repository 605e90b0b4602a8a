// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import SQLKit
public import VettIDCore
import VettIDCrypto

/// Builds the application account JWT from the store: every revocation that has not expired, and an `iat`
/// strictly newer than any JWT built before (the counter is a locked row, so this holds across processes).
public struct NATSAccountJWTBuilder: Sendable {
    let trust: NATSTrust
    let store: any SQLStore
    let clock: any WallClock
    /// The account's JetStream file storage (0: none).
    let mailboxStorage: Int64
    let accounts = NATSAccountRepository()
    let tokens = NATSTokenRepository()

    public init(
        trust: NATSTrust, store: any SQLStore, clock: any WallClock,
        mailboxStorage: Int64 = NATSTrust.defaultMailboxStorage
    ) {
        self.trust = trust
        self.store = store
        self.clock = clock
        self.mailboxStorage = mailboxStorage
    }

    /// An account JWT built from the store, with its `iat` and the counter's value before it.
    struct Built: Sendable {
        let jwt: String
        let issuedAt: Int64
        /// The last `iat` issued before this one, by any instance (read before the counter was locked).
        let previousIssuedAt: Int64
    }

    /// The account JWT as it should be now.
    public func current() async throws -> String {
        try await build().jwt
    }

    /// ``current()`` with the counter's values around it (``NATSAccountPushRace``).
    func build() async throws -> Built {
        let now = UnixSeconds.from(clock.now())
        let trust = self.trust
        let mailboxStorage = self.mailboxStorage
        let key = trust.applicationAccount.publicKey
        return try await store.transaction { db in
            let previous = try await accounts.lastAccountIssuedAt(accountKey: key, on: db)
            let issuedAt = try await accounts.nextAccountIssuedAt(accountKey: key, now: now, on: db)
            let revocations = try await tokens.pendingRevocations(now: now, on: db)
            return Built(
                jwt: try trust.applicationAccountJWT(
                    revocations: revocations, issuedAt: issuedAt, mailboxStorage: mailboxStorage),
                issuedAt: issuedAt, previousIssuedAt: previous)
        }
    }

    /// The last `iat` issued for the application account, by any instance.
    func latestIssuedAt() async throws -> Int64 {
        let key = trust.applicationAccount.publicKey
        return try await store.transaction { db in try await accounts.lastAccountIssuedAt(accountKey: key, on: db) }
    }
}
