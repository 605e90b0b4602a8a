import SQLKit
import VettIDCrypto

/// Builds the application account JWT from the store: every revocation that has not expired, and an `iat`
/// strictly newer than any JWT built before (the counter is a locked row, so this holds across processes).
public struct NATSAccountJWTBuilder: Sendable {
    let trust: NATSTrust
    let store: any SQLStore
    let clock: any WallClock
    let accounts = NATSAccountRepository()
    let tokens = NATSTokenRepository()

    public init(trust: NATSTrust, store: any SQLStore, clock: any WallClock) {
        self.trust = trust
        self.store = store
        self.clock = clock
    }

    /// The account JWT as it should be now.
    public func current() async throws -> String {
        let now = UnixTime.from(clock.now())
        let trust = self.trust
        return try await store.transaction { db in
            let issuedAt = try await accounts.nextAccountIssuedAt(
                accountKey: trust.applicationAccount.publicKey, now: now, on: db)
            let revocations = try await tokens.pendingRevocations(now: now, on: db)
            return try trust.applicationAccountJWT(revocations: revocations, issuedAt: issuedAt)
        }
    }
}
