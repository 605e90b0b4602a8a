// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Testing
import VettIDSession

@testable import VettIDNats

/// A session usable while its remaining requests are positive and its end is beyond the margin.
final class FakeVaultSession: VaultSessionHandle {
    let remaining: Int
    let endsIn: Duration

    init(remaining: Int = 1000, endsIn: Duration = .seconds(86_400)) {
        self.remaining = remaining
        self.endsIn = endsIn
    }

    func isUsable(margin: Duration) -> Bool { remaining > 0 && margin < endsIn }
}

@Suite("Vault session state machine")
struct VaultSessionStateMachineTests {
    typealias Machine = VaultSessionStateMachine<FakeVaultSession>

    /// A machine holding `session`, established through a handshake.
    static func established(_ session: FakeVaultSession) -> Machine {
        var machine = Machine(renewalMargin: .seconds(60))
        guard case .startHandshake = machine.acquire(waiter: 0) else {
            Issue.record("no handshake")
            return machine
        }
        #expect(machine.handshakeFinished(session) == [])
        return machine
    }

    static func uses(_ action: Machine.AcquireAction, _ session: FakeVaultSession) -> Bool {
        if case .use(let used) = action { used === session } else { false }
    }

    static func starts(_ action: Machine.AcquireAction) -> Bool {
        if case .startHandshake = action { true } else { false }
    }

    @Test("first use runs a handshake; later callers use its session")
    func firstUse() {
        var machine = Machine(renewalMargin: .seconds(60))
        #expect(Self.starts(machine.acquire(waiter: 1)))
        let session = FakeVaultSession()
        #expect(machine.handshakeFinished(session) == [])
        #expect(Self.uses(machine.acquire(waiter: 2), session))
        #expect(Self.uses(machine.acquire(waiter: 3), session))
    }

    @Test("concurrent callers wait for the one handshake in flight and are resumed together")
    func concurrentCallersShareAHandshake() {
        var machine = Machine(renewalMargin: .seconds(60))
        #expect(Self.starts(machine.acquire(waiter: 1)))
        for waiter in UInt64(2)...4 {
            guard case .wait = machine.acquire(waiter: waiter) else {
                Issue.record("waiter \(waiter) did not wait")
                return
            }
        }
        let session = FakeVaultSession()
        #expect(machine.handshakeFinished(session) == [2, 3, 4])
        #expect(Self.uses(machine.acquire(waiter: 5), session))
    }

    @Test("a failed handshake resumes its waiters and the next caller starts another")
    func failedHandshake() {
        var machine = Machine(renewalMargin: .seconds(60))
        #expect(Self.starts(machine.acquire(waiter: 1)))
        guard case .wait = machine.acquire(waiter: 2) else {
            Issue.record("no wait")
            return
        }
        #expect(machine.handshakeFinished(nil) == [2])
        guard case .idle = machine.state else {
            Issue.record("not idle")
            return
        }
        #expect(Self.starts(machine.acquire(waiter: 3)))
    }

    @Test("a session whose end is within the margin is renewed before use")
    func renewByTime() {
        var machine = Self.established(FakeVaultSession(endsIn: .seconds(59)))
        #expect(Self.starts(machine.acquire(waiter: 1)))
        var kept = Self.established(FakeVaultSession(endsIn: .seconds(61)))
        guard case .use = kept.acquire(waiter: 1) else {
            Issue.record("a fresh session was renewed")
            return
        }
    }

    @Test("a session whose requests are used up is renewed before use")
    func renewByCount() {
        var machine = Self.established(FakeVaultSession(remaining: 0))
        #expect(Self.starts(machine.acquire(waiter: 1)))
    }

    @Test(
        "session_expired, unknown_session and no-responders renew once per request, then fail",
        arguments: ["session_expired", "unknown_session", "no_responders"])
    func renewOnRefusal(_ code: String) {
        let session = FakeVaultSession()
        var machine = Self.established(session)
        var attempt = Machine.Attempt()
        #expect(machine.requestRefused(code, in: session, attempt: &attempt) == .renew)
        #expect(attempt.renewed)
        guard case .idle = machine.state else {
            Issue.record("the refused session was kept")
            return
        }
        #expect(Self.starts(machine.acquire(waiter: 1)))
        let renewed = FakeVaultSession()
        #expect(machine.handshakeFinished(renewed) == [])
        #expect(machine.requestRefused(code, in: renewed, attempt: &attempt) == .fail)
        // A fresh request gets its own renewal.
        var next = Machine.Attempt()
        #expect(machine.requestRefused(code, in: renewed, attempt: &next) == .renew)
    }

    @Test("a refusal in an old session does not drop the session another caller already renewed")
    func staleRefusalKeepsTheNewSession() {
        let old = FakeVaultSession()
        var machine = Self.established(old)
        var first = Machine.Attempt()
        #expect(machine.requestRefused("unknown_session", in: old, attempt: &first) == .renew)
        #expect(Self.starts(machine.acquire(waiter: 1)))
        let renewed = FakeVaultSession()
        _ = machine.handshakeFinished(renewed)
        var second = Machine.Attempt()
        #expect(machine.requestRefused("unknown_session", in: old, attempt: &second) == .renew)
        #expect(Self.uses(machine.acquire(waiter: 2), renewed))
    }

    @Test("out_of_order retries once in the same session, then fails")
    func outOfOrder() {
        let session = FakeVaultSession()
        var machine = Self.established(session)
        var attempt = Machine.Attempt()
        #expect(machine.requestRefused("out_of_order", in: session, attempt: &attempt) == .retry)
        #expect(Self.uses(machine.acquire(waiter: 1), session))
        #expect(machine.requestRefused("out_of_order", in: session, attempt: &attempt) == .fail)
    }

    @Test(
        "other refusals fail at once and keep the session",
        arguments: ["bad_envelope", "replayed", "timeout", "response_mismatch", "request_expired"])
    func otherRefusalsFail(_ code: String) {
        let session = FakeVaultSession()
        var machine = Self.established(session)
        var attempt = Machine.Attempt()
        #expect(machine.requestRefused(code, in: session, attempt: &attempt) == .fail)
        #expect(attempt == Machine.Attempt())
        #expect(Self.uses(machine.acquire(waiter: 1), session))
    }

    @Test("an unpinned vault key refreshes the pinned keys once, then fails; other handshake errors fail")
    func keyRefresh() {
        #expect(Machine.handshakeRefused("vault_key_not_pinned", keysRefreshed: false) == .refreshKeys)
        #expect(Machine.handshakeRefused("vault_key_not_pinned", keysRefreshed: true) == .fail)
        #expect(Machine.handshakeRefused("bad_vault_signature", keysRefreshed: false) == .fail)
        #expect(Machine.handshakeRefused("suite_downgrade", keysRefreshed: false) == .fail)
    }
}
