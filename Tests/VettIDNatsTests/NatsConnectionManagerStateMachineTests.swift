// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import NATSClient
import Testing
import VettIDClientTestSupport

@testable import VettIDClient
@testable import VettIDNats

@Suite("NATS connection state machine")
struct NatsConnectionManagerStateMachineTests {
    let t0 = Date(timeIntervalSince1970: 1_900_000_000)
    var fresh: NatsCredentials { sampleNatsCredentials(tokenID: "tok-1", issued: t0, lifetime: 24 * 3600) }
    var next: NatsCredentials {
        sampleNatsCredentials(tokenID: "tok-2", issued: t0.addingTimeInterval(23 * 3600), lifetime: 24 * 3600)
    }

    /// A machine connected with ``fresh``.
    func connected() -> NatsConnectionManagerStateMachine {
        var machine = NatsConnectionManagerStateMachine()
        _ = machine.start()
        _ = machine.storedCredentialsLoaded(fresh, now: t0)
        _ = machine.connectSucceeded(now: t0)
        return machine
    }

    @Test("stored fresh credentials are used; the refresh is scheduled one hour before expiry")
    func storedFresh() {
        var machine = NatsConnectionManagerStateMachine()
        #expect(machine.state == .disconnected)
        #expect(machine.start() == [.loadStoredCredentials])
        #expect(machine.state == .connecting)
        #expect(machine.start() == [])
        #expect(machine.storedCredentialsLoaded(fresh, now: t0) == [.connect(fresh)])
        #expect(machine.connectSucceeded(now: t0) == [.scheduleRefresh(after: .seconds(23 * 3600))])
        #expect(machine.state == .connected)
        #expect(machine.currentCredentials == fresh)
    }

    @Test("missing, expired or nearly expired stored credentials are replaced before connecting")
    func storedStale() {
        for stored in [
            nil, sampleNatsCredentials(issued: t0, lifetime: 1800),
            sampleNatsCredentials(issued: t0.addingTimeInterval(-7200), lifetime: 3600),
        ] {
            var machine = NatsConnectionManagerStateMachine()
            _ = machine.start()
            #expect(machine.storedCredentialsLoaded(stored, now: t0) == [.fetchCredentials])
            #expect(machine.credentialsIssued(fresh, now: t0) == [.storeCredentials(fresh), .connect(fresh)])
            #expect(machine.connectSucceeded(now: t0) == [.scheduleRefresh(after: .seconds(23 * 3600))])
            #expect(machine.state == .connected)
        }
    }

    @Test("a provider that refuses at start ends in error; start again retries")
    func providerRefusesAtStart() {
        var machine = NatsConnectionManagerStateMachine()
        _ = machine.start()
        _ = machine.storedCredentialsLoaded(nil, now: t0)
        #expect(machine.credentialsFailed("not_found: no account", now: t0) == [.cancelRefresh, .dropConnection])
        #expect(machine.state == .error("No NATS credentials: not_found: no account"))
        #expect(machine.start() == [.loadStoredCredentials])
    }

    @Test("expired credentials from the provider are refused")
    func issuedExpired() {
        var machine = NatsConnectionManagerStateMachine()
        _ = machine.start()
        _ = machine.storedCredentialsLoaded(nil, now: t0)
        let expired = sampleNatsCredentials(issued: t0.addingTimeInterval(-7200), lifetime: 3600)
        _ = machine.credentialsIssued(expired, now: t0)
        guard case .error = machine.state else {
            Issue.record("expected error, got \(machine.state)")
            return
        }
    }

    @Test("refresh due: fetch, store, swap make-before-break, reschedule; state stays connected")
    func refreshSwap() {
        var machine = connected()
        let now = t0.addingTimeInterval(23 * 3600)
        #expect(machine.refreshDue(now: now) == [.fetchCredentials])
        #expect(machine.state == .connected)
        #expect(machine.credentialsIssued(next, now: now) == [.storeCredentials(next), .swap(to: next)])
        #expect(machine.state == .connected)
        #expect(machine.swapSucceeded(now: now) == [.scheduleRefresh(after: .seconds(23 * 3600))])
        #expect(machine.swapCount == 1)
        #expect(machine.currentCredentials == next)
        // Late events of the replaced client are ignored.
        #expect(
            machine.clientDisconnected(
                tokenID: "tok-1", NatsDisconnectReason(NATSError(.authenticationExpired, "")), now: now) == [])
        #expect(machine.clientClosed(tokenID: "tok-1", .other(nil), now: now) == [])
        #expect(machine.state == .connected)
    }

    @Test("refresh with credentials already issued swaps to them directly; the same token is ignored")
    func refreshUsing() {
        var machine = connected()
        #expect(machine.refreshRequested(fresh, now: t0) == [])
        #expect(machine.refreshRequested(next, now: t0) == [.storeCredentials(next), .swap(to: next)])
        #expect(machine.refreshRequested(nil, now: t0) == [], "a swap is already running")
    }

    @Test("a failed fetch or swap keeps the connection and retries (sooner near expiry)")
    func refreshFailures() {
        var machine = connected()
        let now = t0.addingTimeInterval(23 * 3600)
        _ = machine.refreshDue(now: now)
        #expect(machine.credentialsFailed("network_error", now: now) == [.scheduleRefresh(after: .seconds(60))])
        #expect(machine.state == .connected)
        _ = machine.refreshDue(now: now)
        _ = machine.credentialsIssued(next, now: now)
        let nearExpiry = t0.addingTimeInterval(24 * 3600 - 30)
        #expect(
            machine.swapFailed(.other("connect_failed"), now: nearExpiry) == [.scheduleRefresh(after: .seconds(15))])
        #expect(machine.currentCredentials == fresh)
        #expect(machine.swapCount == 0)
    }

    @Test("short tokens refresh at half their remaining life, never sooner than the minimum")
    func shortTokens() {
        let machine = NatsConnectionManagerStateMachine(timing: .init(refreshWindow: 3, minimumRefreshDelay: 0.3))
        let fourSeconds = sampleNatsCredentials(issued: t0, lifetime: 4)
        #expect(machine.refreshDelay(fourSeconds, now: t0) == .seconds(1))
        #expect(machine.refreshDelay(fourSeconds, now: t0.addingTimeInterval(2)) == .seconds(1))
        #expect(machine.refreshDelay(fourSeconds, now: t0.addingTimeInterval(3.9)) == .milliseconds(300))
    }

    @Test("credentials refused by nats-server: drop, fetch once, reconnect; a refusing provider ends in error")
    func credentialsRefused() {
        var machine = connected()
        let revoked = NatsDisconnectReason(NATSError(.authenticationRevoked, "User Authentication Revoked"))
        #expect(
            machine.clientDisconnected(tokenID: "tok-1", revoked, now: t0) == [
                .cancelRefresh, .dropConnection, .fetchCredentials,
            ])
        #expect(machine.state == .connecting)
        #expect(machine.reauthenticationCount == 1)
        #expect(machine.credentialsIssued(next, now: t0) == [.storeCredentials(next), .connect(next)])
        #expect(machine.connectSucceeded(now: t0).count == 1)
        #expect(machine.state == .connected)

        var refusing = connected()
        _ = refusing.clientDisconnected(
            tokenID: "tok-1", NatsDisconnectReason(NATSError(.authenticationExpired, "")), now: t0)
        #expect(refusing.credentialsFailed("invalid_token", now: t0) == [.cancelRefresh, .dropConnection])
        #expect(refusing.state == .error("No NATS credentials: invalid_token"))
    }

    @Test("stored credentials refused at connect are replaced once; fresh ones refused end in error")
    func connectRefused() {
        var machine = NatsConnectionManagerStateMachine()
        _ = machine.start()
        _ = machine.storedCredentialsLoaded(fresh, now: t0)
        let refused = NatsDisconnectReason(NATSError(.authorizationViolation, "Authorization Violation"))
        #expect(machine.connectFailed(refused, now: t0) == [.cancelRefresh, .dropConnection, .fetchCredentials])
        _ = machine.credentialsIssued(next, now: t0)
        #expect(machine.connectFailed(refused, now: t0) == [.cancelRefresh, .dropConnection])
        #expect(machine.state == .error("nats-server refused the credentials (authorization_violation)."))
    }

    @Test("a server restart: connecting while NATSClient reconnects, connected after; a pending refresh runs then")
    func serverRestart() {
        var machine = connected()
        #expect(machine.clientDisconnected(tokenID: "tok-1", .other(nil), now: t0) == [])
        #expect(machine.state == .connecting)
        let now = t0.addingTimeInterval(23 * 3600)
        #expect(machine.refreshDue(now: now) == [.scheduleRefresh(after: .seconds(3600))])
        #expect(machine.clientReconnected(tokenID: "tok-1", now: now) == [.fetchCredentials])
        #expect(machine.state == .connected)

        var quiet = connected()
        _ = quiet.clientDisconnected(tokenID: "tok-1", .other("stale_connection"), now: t0)
        #expect(quiet.clientReconnected(tokenID: "tok-1", now: t0) == [])
        #expect(quiet.state == .connected)
        _ = quiet.clientDisconnected(tokenID: "tok-1", .other(nil), now: t0)
        #expect(
            quiet.clientClosed(tokenID: "tok-1", .other("no_servers"), now: t0) == [.cancelRefresh, .dropConnection])
        #expect(quiet.state == .error("The connection to the messaging server was lost."))
    }

    @Test("the old connection cut off during a swap: a successful swap ignores it, a failed swap re-authenticates")
    func cutOffDuringSwap() {
        let expired = NatsDisconnectReason(NATSError(.authenticationExpired, ""))
        var machine = connected()
        _ = machine.refreshRequested(next, now: t0)
        #expect(machine.clientDisconnected(tokenID: "tok-1", expired, now: t0) == [])
        #expect(machine.swapSucceeded(now: t0).count == 1)
        #expect(machine.currentCredentials == next)
        #expect(machine.state == .connected)

        var failing = connected()
        _ = failing.refreshRequested(next, now: t0)
        _ = failing.clientDisconnected(tokenID: "tok-1", expired, now: t0)
        #expect(
            failing.swapFailed(.other("connect_failed"), now: t0) == [
                .cancelRefresh, .dropConnection, .fetchCredentials,
            ])
    }

    @Test("stop closes everything; a connect finishing after stop is closed too")
    func stop() {
        var machine = connected()
        #expect(machine.stop() == [.cancelRefresh, .closeConnection])
        #expect(machine.state == .disconnected)
        #expect(machine.stop() == [])
        var racing = NatsConnectionManagerStateMachine()
        _ = racing.start()
        _ = racing.storedCredentialsLoaded(fresh, now: t0)
        _ = racing.stop()
        #expect(racing.connectSucceeded(now: t0) == [.closeConnection])
    }

    @Test("disconnect reasons: expired, revoked and authorization violation need new credentials")
    func reasons() {
        #expect(NatsDisconnectReason(NATSError(.authenticationExpired, "")).needsNewCredentials)
        #expect(NatsDisconnectReason(NATSError(.authenticationRevoked, "")).needsNewCredentials)
        #expect(NatsDisconnectReason(NATSError(.authorizationViolation, "")).needsNewCredentials)
        #expect(!NatsDisconnectReason(NATSError(.staleConnection, "")).needsNewCredentials)
        #expect(!NatsDisconnectReason(nil).needsNewCredentials)
    }
}
