// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import NATSClient
import NIOConcurrencyHelpers
import Testing
import VettIDCore
import VettIDCrypto
import VettIDServer
import VettIDTestSupport

/// The account publisher's settling re-push against a real nats-server: watched as the system account sees the
/// `CLAIMS.UPDATE` requests.
@Suite(.enabled(if: NATSLive.isAvailable, "nats-server is not installed"))
struct NATSAccountPushLiveTests {
    @Test func aPushRightAfterAnotherInstancesIsPushedOnceMoreAndAPushAfterItsOwnIsNot() async throws {
        try await NATSLive.with { live in
            let components = live.server.components
            let publisher = try #require(components.natsPublisher)
            let trust = components.natsTrust
            let credentials = try trust.systemUserCredentials(now: Int64(Date().timeIntervalSince1970))
            let observer = try NATSClient(
                configuration: NATSClient.Configuration(
                    servers: [live.nats.url], auth: .jwt(credentials.jwt, seed: credentials.seed)))
            try await observer.connect()
            let updates = try observer.subscribe(
                to: "$SYS.REQ.ACCOUNT.\(trust.applicationAccount.publicKey).CLAIMS.UPDATE")
            try await observer.flush()
            let seen = NIOLockedValueBox(0)
            let counting = Task { for await _ in updates { seen.withLockedValue { $0 += 1 } } }
            /// The updates seen once none came for 3 s (a settling re-push comes 0.5-1.5 s after its push, plus the push).
            func settled() async throws -> Int {
                var last = -1
                while true {
                    let now = seen.withLockedValue { $0 }
                    if now == last { return now }
                    last = now
                    try await Task.sleep(for: .seconds(3))
                }
            }
            _ = try await settled()  // the publisher's own push on connecting

            // Another instance (a builder of its own on the same store) issues an update just before this push.
            seen.withLockedValue { $0 = 0 }
            _ = try await NATSAccountJWTBuilder(trust: trust, store: components.store, clock: SystemWallClock())
                .current()
            try await publisher.pushCurrent()
            #expect(try await settled() == 2, "the push and, 0.5-1.5 s later, the settling re-push")

            // Right after its own pushes: one push, nothing more.
            seen.withLockedValue { $0 = 0 }
            try await publisher.pushCurrent()
            #expect(try await settled() == 1, "no re-push after this instance's own push")

            updates.unsubscribe()
            await counting.value
            await observer.close()
        }
    }
}
