// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Testing

@testable import NATSClient

@Suite struct NATSConnectionStateMachineTests {
    let serverA = NATSServerAddress("nats://127.0.0.1:4222")!
    let serverB = NATSServerAddress("nats://127.0.0.1:4223")!

    func info(tls: Bool = false, urls: [String] = [], ldm: Bool = false) -> NATSServerInfo {
        NATSServerInfo(serverID: "S", tlsRequired: tls, connectURLs: urls, lameDuckMode: ldm)
    }

    func machine(
        servers: [NATSServerAddress]? = nil,
        configure: (inout NATSConnectionStateMachine.Configuration) -> Void = { _ in }
    ) -> NATSConnectionStateMachine {
        var configuration = NATSConnectionStateMachine.Configuration()
        configuration.reconnect = NATSReconnectPolicy(
            maxAttemptsPerServer: 3,
            wait: .seconds(2),
            jitter: .milliseconds(100),
            backoffMultiplier: 2,
            maxWait: .seconds(5)
        )
        configure(&configuration)
        return NATSConnectionStateMachine(servers: servers ?? [serverA], configuration: configuration, jitter: { 0.5 })
    }

    /// Drives a machine through a full handshake.
    func connect(_ machine: inout NATSConnectionStateMachine, isReconnect: Bool = false) {
        machine.channelActive()
        #expect(machine.receivedInfo(info()) == [.sendConnect(info())])
        #expect(machine.receivedPong() == [.connected(info(), server: machine.pool.current!, isReconnect: isReconnect)])
        #expect(machine.isConnected)
    }

    @Test func plainHandshake() {
        var machine = machine()
        #expect(machine.start() == .connect(serverA))
        machine.channelActive()
        #expect(machine.state == .awaitingInfo(serverA))
        #expect(machine.receivedInfo(info()) == [.sendConnect(info())])
        // An INFO update before the PONG is not "connected"; only the PONG is.
        #expect(machine.receivedInfo(info(urls: ["10.0.0.2:4222"])) == [])
        #expect(!machine.isConnected)
        #expect(machine.receivedPing() == [.sendPong])
        #expect(
            machine.receivedPong() == [.connected(info(urls: ["10.0.0.2:4222"]), server: serverA, isReconnect: false)])
        #expect(machine.isConnected)
        #expect(machine.receivedPong() == [.completePong])
    }

    /// `isConnected` and `isClosed` are kept beside `state` (publishes read them): they agree with its case after
    /// every step of a lifecycle with a drop, a reconnect, a drain and a close.
    @Test func connectedAndClosedFlagsFollowTheStateThroughALifecycle() {
        var machine = machine()
        func check(_ step: String) {
            let connected: Bool
            switch machine.state {
            case .connected, .draining: connected = true
            default: connected = false
            }
            #expect(machine.isConnected == connected, "isConnected after \(step): \(machine.state)")
            #expect(machine.isClosed == (machine.state == .closed), "isClosed after \(step): \(machine.state)")
        }
        check("init")
        _ = machine.start()
        check("start")
        machine.channelActive()
        check("channelActive")
        _ = machine.receivedInfo(info())
        check("INFO")
        _ = machine.receivedPong()
        check("PONG")
        #expect(machine.isConnected)
        _ = machine.channelInactive(error: NATSError(.connectionClosed, "dropped"))
        check("channelInactive")
        #expect(!machine.isConnected)
        _ = machine.reconnectTimerFired()
        check("reconnectTimerFired")
        connect(&machine, isReconnect: true)
        check("reconnect")
        let draining = machine.startDraining()
        #expect(draining)
        check("startDraining")
        #expect(machine.isConnected)
        _ = machine.close()
        check("close")
        _ = machine.channelInactive()
        check("channelInactive after close")
        #expect(machine.isClosed)
    }

    @Test func tlsUpgradeWhenServerRequiresIt() {
        var machine = machine()
        _ = machine.start()
        machine.channelActive()
        #expect(machine.receivedInfo(info(tls: true)) == [.upgradeTLS(serverA, info(tls: true))])
        #expect(machine.tlsEstablished() == [.sendConnect(info(tls: true))])
        #expect(machine.receivedPong().first == .connected(info(tls: true), server: serverA, isReconnect: false))
    }

    @Test func tlsUpgradeWhenClientRequiresIt() {
        var machine = machine { $0.requireTLS = true }
        _ = machine.start()
        machine.channelActive()
        #expect(machine.receivedInfo(info()) == [.upgradeTLS(serverA, info())])
    }

    @Test func keepaliveDetectsStaleConnection() {
        var machine = machine { $0.maxPingsOut = 2 }
        _ = machine.start()
        connect(&machine)
        #expect(machine.pingTimerFired() == [.sendPing])
        #expect(machine.pingTimerFired() == [.sendPing])
        #expect(machine.pingsOutstanding == 2)
        let actions = machine.pingTimerFired()
        guard case .closeChannel(let error) = actions.first else {
            Issue.record("expected the channel to close, got \(actions)")
            return
        }
        #expect(error.code == .staleConnection)
    }

    @Test func pongResetsOutstandingPings() {
        var machine = machine()
        _ = machine.start()
        connect(&machine)
        _ = machine.pingTimerFired()
        _ = machine.pingTimerFired()
        #expect(machine.receivedPong() == [.completePong])
        #expect(machine.pingsOutstanding == 0)
        #expect(machine.pingTimerFired() == [.sendPing])
    }

    @Test func pingTimerIsIgnoredBeforeConnected() {
        var machine = machine()
        _ = machine.start()
        #expect(machine.pingTimerFired() == [])
    }

    @Test(arguments: [
        ("Permissions Violation for Publish to \"x\"", NATSError.Code.permissionsViolation, false),
        ("Permissions Violation for Subscription to \"y\" using queue \"q\"", .permissionsViolation, false),
        ("maximum subscriptions exceeded", .maxSubscriptionsExceeded, false),
        ("Invalid Subject", .invalidSubject, false),
        ("Invalid Publish Subject", .invalidSubject, false),
        ("Authorization Violation", .authorizationViolation, true),
        ("User Authentication Expired", .authenticationExpired, true),
        ("User Authentication Revoked", .authenticationRevoked, true),
        ("Account Authentication Expired", .authenticationExpired, true),
        ("Maximum Payload Violation", .maxPayloadViolation, true),
        ("Stale Connection", .staleConnection, true),
        ("maximum connections exceeded", .maxConnectionsExceeded, true),
        ("Unknown Protocol Operation", .protocolError, true),
        ("Maximum Control Line Exceeded", .protocolError, true),
        ("Secure Connection - TLS Required", .tlsRequired, true),
        ("something new", .serverError, true),
    ])
    func everyServerErrorIsClassified(text: String, code: NATSError.Code, fatal: Bool) {
        let classified = NATSServerError(text: text)
        #expect(classified.error.code == code)
        #expect(classified.isFatal == fatal)
        #expect(classified.error.message == text)

        var machine = machine()
        _ = machine.start()
        connect(&machine)
        let actions = machine.receivedError(text)
        if fatal {
            #expect(actions == [.reportError(classified.error), .closeChannel(classified.error)])
        } else {
            #expect(actions == [.reportError(classified.error)])
            #expect(machine.isConnected)
        }
    }

    @Test func authFailureOnInitialConnectFails() {
        var machine = machine()
        _ = machine.start()
        machine.channelActive()
        _ = machine.receivedInfo(info())
        let violation = NATSError(.authorizationViolation, "Authorization Violation")
        #expect(machine.receivedError("Authorization Violation") == [.closeChannel(violation)])
        #expect(machine.channelInactive() == [.fail(violation)])
        #expect(machine.isClosed)
    }

    @Test func initialConnectTriesEachServerOnce() {
        var machine = machine(servers: [serverA, serverB])
        #expect(machine.start() == .connect(serverA))
        let refused = NATSError(.noServers, "connection refused")
        #expect(machine.channelInactive(error: refused) == [.connect(serverB)])
        #expect(machine.channelInactive(error: refused) == [.fail(refused)])
    }

    @Test func retryOnFailedConnectWaitsAfterThePool() {
        var machine = machine { $0.retryOnFailedConnect = true }
        _ = machine.start()
        let actions = machine.channelInactive(error: NATSError(.noServers, "refused"))
        #expect(actions == [.scheduleReconnect(serverA, after: .seconds(2) + .milliseconds(50))])
        #expect(machine.reconnectTimerFired() == [.connect(serverA)])
    }

    @Test func reconnectWithBackoffJitterAndMaximum() {
        var machine = machine()
        _ = machine.start()
        connect(&machine)
        // Lost: report, then wait (the pool of one was tried) with jitter 0.5 × 100 ms.
        var actions = machine.channelInactive()
        #expect(actions == [.disconnected(nil), .scheduleReconnect(serverA, after: .milliseconds(2050))])
        #expect(machine.reconnectTimerFired() == [.connect(serverA)])
        // Second round: backoff doubles the wait.
        actions = machine.channelInactive(error: NATSError(.noServers, "refused"))
        #expect(actions == [.scheduleReconnect(serverA, after: .milliseconds(4050))])
        #expect(machine.reconnectTimerFired() == [.connect(serverA)])
        // Third round: capped at maxWait.
        actions = machine.channelInactive(error: NATSError(.noServers, "refused"))
        #expect(actions == [.scheduleReconnect(serverA, after: .milliseconds(5050))])
        #expect(machine.reconnectTimerFired() == [.connect(serverA)])
        // Three attempts used: the server is dropped and the client gives up.
        actions = machine.channelInactive(error: NATSError(.noServers, "refused"))
        guard case .fail(let error) = actions.first else {
            Issue.record("expected fail, got \(actions)")
            return
        }
        #expect(error.code == .noServers)
        #expect(machine.isClosed)
    }

    @Test func successfulReconnectIsCounted() {
        var machine = machine()
        _ = machine.start()
        connect(&machine)
        _ = machine.channelInactive()
        _ = machine.reconnectTimerFired()
        connect(&machine, isReconnect: true)
        #expect(machine.reconnects == 1)
    }

    @Test func reconnectMovesToTheNextServerImmediately() {
        var machine = machine(servers: [serverA, serverB])
        _ = machine.start()
        connect(&machine)
        #expect(machine.channelInactive() == [.disconnected(nil), .connect(serverB)])
    }

    @Test func reconnectDisabledCloses() {
        var machine = machine { $0.reconnect = .disabled }
        _ = machine.start()
        connect(&machine)
        let actions = machine.channelInactive(error: NATSError(.staleConnection, "x"))
        #expect(actions.first == .disconnected(NATSError(.staleConnection, "x")))
        #expect(machine.isClosed)
    }

    @Test func discoveredServersAreAddedWithSchemeAndPruned() {
        var machine = machine()
        _ = machine.start()
        connect(&machine)
        var actions = machine.receivedInfo(info(urls: ["127.0.0.1:4222", "10.0.0.5:4333"]))
        let discovered = NATSServerAddress("nats://10.0.0.5:4333", isDiscovered: true)!
        #expect(
            actions == [
                .updateInfo(
                    info(urls: ["127.0.0.1:4222", "10.0.0.5:4333"]), discovered: [discovered], enteredLameDuck: false)
            ])
        #expect(machine.pool.addresses.map(\.description) == ["nats://127.0.0.1:4222", "nats://10.0.0.5:4333"])
        actions = machine.receivedInfo(info(urls: ["127.0.0.1:4222"], ldm: true))
        #expect(
            actions == [.updateInfo(info(urls: ["127.0.0.1:4222"], ldm: true), discovered: [], enteredLameDuck: true)])
        #expect(machine.pool.addresses.count == 1)
    }

    @Test func closeAndDrain() {
        var machine = machine()
        _ = machine.start()
        connect(&machine)
        let draining = machine.startDraining()
        #expect(draining)
        #expect(machine.isConnected)
        #expect(machine.close() == [.closeChannel(NATSError(.connectionClosed, "closed by the client"))])
        #expect(machine.channelInactive() == [.finishClose])
        #expect(machine.isClosed)
        #expect(machine.close() == [])
    }

    @Test func closeWhileWaitingToReconnect() {
        var machine = machine()
        _ = machine.start()
        connect(&machine)
        _ = machine.channelInactive()
        #expect(machine.close() == [.finishClose])
        #expect(machine.reconnectTimerFired() == [])
    }

    @Test func serverAddresses() {
        #expect(NATSServerAddress("localhost")?.description == "nats://localhost:4222")
        #expect(NATSServerAddress("tls://example.com:7422")?.description == "tls://example.com:7422")
        let withCredentials = NATSServerAddress("nats://alice:pw@10.1.2.3:4333")
        #expect(withCredentials?.user == "alice")
        #expect(withCredentials?.password == "pw")
        #expect(withCredentials?.description == "nats://10.1.2.3:4333")
        #expect(NATSServerAddress("nats://[::1]:4000")?.host == "::1")
        #expect(NATSServerAddress("http://x") == nil)
        #expect(NATSServerAddress("nats://x:99999") == nil)
        #expect(NATSServerAddress("") == nil)
    }
}
