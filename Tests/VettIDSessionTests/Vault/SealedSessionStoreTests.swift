// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Testing
import VettIDCrypto
import VettIDSession

/// The request path as a pure state machine: time is an input.
@Suite struct SealedSessionStoreTests {
    let member = SessionHarness.memberGUID
    let t0 = ContinuousClock.now

    @Test func aGapIsAdmittedInsideTheReorderWaitAndOutOfOrderAfterIt() async throws {
        let harness = try SessionHarness()
        let (client, session) = try await harness.establish()
        var store = SealedSessionStore()
        store.insert(session, nowMilliseconds: SessionHarness.start)
        let first = try client.sealRequest(handler: "echo", body: .null)
        let second = try client.sealRequest(handler: "echo", body: .null)
        let third = try client.sealRequest(handler: "echo", body: .null)

        let opened = store.open(third.envelope, memberGUID: member, nowMilliseconds: SessionHarness.start, now: t0)
        #expect(opened.admitted?.sequence == 3)
        let inTime = store.open(
            second.envelope, memberGUID: member, nowMilliseconds: SessionHarness.start,
            now: t0.advanced(by: .milliseconds(49)))
        #expect(inTime.admitted?.sequence == 2)
        let late = store.open(
            first.envelope, memberGUID: member, nowMilliseconds: SessionHarness.start,
            now: t0.advanced(by: .milliseconds(50)))
        #expect(late.refusalCode == .outOfOrder)
        #expect(late.isSealedRefusal == true)
    }

    @Test func aDroppedSessionRefusesItsRequests() async throws {
        let harness = try SessionHarness()
        let (client, session) = try await harness.establish()
        var store = SealedSessionStore()
        store.insert(session, nowMilliseconds: SessionHarness.start)
        let first = try client.sealRequest(handler: "echo", body: .null)
        #expect(store.removeSessions(memberGUID: member) == [session.id])
        let ended = store.open(first.envelope, memberGUID: member, nowMilliseconds: SessionHarness.start, now: t0)
        #expect(ended.refusalCode == .unknownSession)
        #expect(ended.isSealedRefusal == false)
        #expect(store.count == 0)
    }

    @Test func insertReportsWhatItDrops() async throws {
        let harness = try SessionHarness()
        var store = SealedSessionStore(configuration: .init(maxSessionsPerDevice: 1))
        let first = try await harness.establish().session
        let second = try await harness.establish().session
        #expect(store.insert(first, nowMilliseconds: SessionHarness.start).isEmpty)
        #expect(store.insert(second, nowMilliseconds: SessionHarness.start) == [first.id])
        #expect(store.session(second.id) != nil)
    }
}
