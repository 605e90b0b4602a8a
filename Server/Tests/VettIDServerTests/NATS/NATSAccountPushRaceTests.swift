// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Testing

@testable import VettIDServer

/// When a push of the application account JWT is followed by the one settling re-push.
@Suite struct NATSAccountPushRaceTests {
    private func race(previous: Int64, issuedAt: Int64 = 1_000, latest: Int64? = nil, lastOwn: Int64?)
        -> NATSAccountPushRace
    {
        NATSAccountPushRace(
            issuedAt: issuedAt, previousIssuedAt: previous, latestIssuedAt: latest ?? issuedAt, lastOwnIssuedAt: lastOwn
        )
    }

    @Test func aPushAfterThisInstancesOwnOrTheFirstEverIsNotSuspected() {
        #expect(!race(previous: 0, lastOwn: nil).isSuspected, "the first update of the account")
        #expect(!race(previous: 999, lastOwn: 999).isSuspected, "this instance's own previous push")
    }

    @Test func anotherInstancesUpdateJustBeforeIsSuspected() {
        #expect(race(previous: 999, lastOwn: nil).isSuspected, "another instance's update 1 s before")
        #expect(race(previous: 995, lastOwn: 990).isSuspected, "5 s before: still inside the window")
        #expect(!race(previous: 994, lastOwn: 990).isSuspected, "6 s before: settled long ago")
    }

    @Test func anotherInstancesUpdateAfterThisOneIsSuspected() {
        #expect(race(previous: 999, latest: 1_001, lastOwn: 999).isSuspected, "built after this push's build")
        #expect(!race(previous: 999, latest: 1_000, lastOwn: 999).isSuspected)
    }
}
