// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Testing
import VettIDCrypto
import VettIDSession

/// The request path as a pure state machine: a wait is a step, time is an input.
@Suite struct SealedSessionStoreTests {
    let member = SessionHarness.memberGUID
    let t0 = ContinuousClock.now

    func outcome(_ step: SealedSessionStore.Step) -> SealedRequestOutcome? {
        if case .finished(let outcome, _) = step { outcome } else { nil }
    }

    @Test func aGapWaitsAndTheGapClosingLetsItGoOn() async throws {
        let harness = try SessionHarness()
        let (client, session) = try await harness.establish()
        var store = SealedSessionStore()
        store.insert(session, nowMilliseconds: SessionHarness.start)
        let first = try client.sealRequest(handler: "echo", body: .null)
        let second = try client.sealRequest(handler: "echo", body: .null)

        let waiting = store.open(second.envelope, memberGUID: member, nowMilliseconds: SessionHarness.start, now: t0)
        guard case .waiting(let pending, let deadline) = waiting else {
            Issue.record("expected a wait, got \(waiting)")
            return
        }
        #expect(pending.sessionID == session.id)
        #expect(pending.sequence == 2)
        #expect(deadline == t0.advanced(by: .milliseconds(50)))

        let admitted = store.open(first.envelope, memberGUID: member, nowMilliseconds: SessionHarness.start, now: t0)
        guard case .finished(.admitted(let request), let advanced) = admitted else {
            Issue.record("expected an admission, got \(admitted)")
            return
        }
        #expect(request.sequence == 1)
        #expect(advanced == session.id)
        let resumed = store.resume(
            pending, nowMilliseconds: SessionHarness.start, now: t0.advanced(by: .milliseconds(1)))
        #expect(outcome(resumed)?.admitted?.sequence == 2)
    }

    @Test func theDeadlineAdmitsAndTheLateGapIsOutOfOrder() async throws {
        let harness = try SessionHarness()
        let (client, session) = try await harness.establish()
        var store = SealedSessionStore()
        store.insert(session, nowMilliseconds: SessionHarness.start)
        let first = try client.sealRequest(handler: "echo", body: .null)
        let second = try client.sealRequest(handler: "echo", body: .null)
        guard
            case .waiting(let pending, let deadline) = store.open(
                second.envelope, memberGUID: member, nowMilliseconds: SessionHarness.start, now: t0)
        else {
            Issue.record("expected a wait")
            return
        }
        guard case .waiting = store.resume(pending, nowMilliseconds: SessionHarness.start, now: t0) else {
            Issue.record("expected to wait again before the deadline")
            return
        }
        #expect(outcome(store.resume(pending, nowMilliseconds: SessionHarness.start, now: deadline))?.admitted != nil)
        let late = store.open(first.envelope, memberGUID: member, nowMilliseconds: SessionHarness.start, now: deadline)
        #expect(outcome(late)?.refusalCode == .outOfOrder)
        #expect(outcome(late)?.isSealedRefusal == true)
    }

    @Test func aDroppedSessionEndsItsWaiters() async throws {
        let harness = try SessionHarness()
        let (client, session) = try await harness.establish()
        var store = SealedSessionStore()
        store.insert(session, nowMilliseconds: SessionHarness.start)
        _ = try client.sealRequest(handler: "echo", body: .null)
        let second = try client.sealRequest(handler: "echo", body: .null)
        guard
            case .waiting(let pending, _) = store.open(
                second.envelope, memberGUID: member, nowMilliseconds: SessionHarness.start, now: t0)
        else {
            Issue.record("expected a wait")
            return
        }
        #expect(store.removeSessions(memberGUID: member) == [session.id])
        let ended = store.resume(pending, nowMilliseconds: SessionHarness.start, now: t0)
        #expect(outcome(ended)?.refusalCode == .unknownSession)
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
