// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Carrying out what the connection state machine decided: opening channels, TLS, CONNECT, PING/PONG,
// the connected state (resubscribing and writing what was buffered), disconnects, reconnect timers, closing.

import Logging
import NIOConcurrencyHelpers
import NIOCore

extension NATSConnectionCore {
    func perform(_ actions: [NATSConnectionStateMachine.Action], channel: (any Channel)?) {
        for action in actions { perform(action, channel: channel) }
    }

    private func perform(_ action: NATSConnectionStateMachine.Action, channel: (any Channel)?) {
        switch action {
        case .connect(let server):
            logger.debug("connecting", metadata: ["server": "\(server)"])
            bootstrap.connect(to: server, on: eventLoop, core: self).whenFailure { error in
                self.connectFailed(error)
            }

        case .upgradeTLS(let server, _):
            guard let channel else { return }
            do {
                try NATSTLSUpgrade.addHandler(
                    to: channel,
                    configuration: configuration.tls,
                    serverHostname: configuration.tls.serverName ?? server.host
                )
            } catch {
                let actions = state.withLockedValue { state in
                    state.machine.protocolFailure(NATSError(.tlsRequired, "TLS setup failed: \(error)"))
                }
                perform(actions, channel: channel)
            }

        case .sendConnect(let info):
            guard let channel else { return }
            sendConnect(info: info, channel: channel)

        case .sendPong:
            guard let channel else { return }
            var buffer = channel.allocator.buffer(capacity: 6)
            buffer.writeNATSCommand(.pong)
            channel.writeAndFlush(buffer, promise: nil)

        case .sendPing:
            let shouldFlush = state.withLockedValue { state in
                state.outbound.write(.ping)
                state.pongWaiters.append((id: 0, promise: nil))
                return scheduleFlushLocked(&state)
            }
            if shouldFlush { eventLoop.execute { self.flushOutbound() } }

        case .completePong:
            let promise: EventLoopPromise<Void>? = state.withLockedValue { state in
                state.pongWaiters.isEmpty ? nil : state.pongWaiters.removeFirst().promise
            }
            promise?.succeed()

        case .connected(let info, let server, let isReconnect):
            guard let channel else { return }
            didConnect(info: info, server: server, isReconnect: isReconnect, channel: channel)

        case .updateInfo(let info, let discovered, let enteredLameDuck):
            state.withLockedValue { state in
                state.maxPayload = info.maxPayload
                state.serverHeaders = info.headers
            }
            if !discovered.isEmpty { events.yield(.discoveredServers(discovered.map(\.description))) }
            if enteredLameDuck { events.yield(.lameDuckMode) }

        case .reportError(let error):
            logger.debug("non-fatal server error", metadata: ["error": "\(error)"])
            events.yield(.error(error))

        case .closeChannel(let error):
            logger.debug("closing connection", metadata: ["reason": "\(error)"])
            let current = state.withLockedValue { $0.channel } ?? channel
            current?.close(promise: nil)

        case .disconnected(let error):
            let waiters: [EventLoopPromise<Void>] = state.withLockedValue { state in
                let waiters = state.pongWaiters.compactMap(\.promise)
                state.pongWaiters.removeAll()
                return waiters
            }
            let failure = NATSError(.notConnected, "connection lost")
            for waiter in waiters { waiter.fail(failure) }
            logger.info("disconnected", metadata: ["reason": "\(error.map { "\($0)" } ?? "closed")"])
            events.yield(.disconnected(error))

        case .scheduleReconnect(let server, let delay):
            logger.debug("reconnect scheduled", metadata: ["server": "\(server)", "delay": "\(delay)"])
            eventLoop.scheduleTask(in: TimeAmount(delay)) {
                let actions = self.state.withLockedValue { $0.machine.reconnectTimerFired() }
                self.perform(actions, channel: nil)
            }

        case .fail(let error):
            finish(error: error)

        case .finishClose:
            finish(error: nil)
        }
    }

    private func sendConnect(info: NATSServerInfo, channel: any Channel) {
        let server = state.withLockedValue { $0.machine.pool.current }
        let options: NATSConnectOptions
        do {
            options = try bootstrap.connectOptions(info: info, server: server)
        } catch {
            let actions = state.withLockedValue { $0.machine.protocolFailure(error) }
            perform(actions, channel: channel)
            return
        }
        var buffer = channel.allocator.buffer(capacity: 512)
        buffer.writeNATSConnect(options)
        buffer.writeNATSCommand(.ping)
        channel.writeAndFlush(buffer, promise: nil)
    }

    private func didConnect(info: NATSServerInfo, server: NATSServerAddress, isReconnect: Bool, channel: any Channel) {
        let interval = TimeAmount(configuration.pingInterval)
        let (buffer, chunks, admitted, connectPromise):
            (ByteBuffer, [ByteBuffer], [(EventLoopPromise<Void>, NATSError?)], EventLoopPromise<Void>?) =
                state.withLockedValue { state in
                    state.handshakeTimeout?.cancel()
                    state.handshakeTimeout = nil
                    state.maxPayload = info.maxPayload
                    state.serverHeaders = info.headers
                    if isReconnect { state.statistics.reconnects += 1 }
                    // Every subscription again (queue group and remaining auto-unsubscribe count), then the
                    // publishes buffered while disconnected, then sends that waited for room.
                    var buffer = channel.allocator.buffer(capacity: 256)
                    for command in state.subscriptions.resubscribeCommands() { buffer.writeNATSCommand(command) }
                    let chunks = state.outbound.takeForWrite()
                    let admitted = admitWaitingSendsLocked(&state)
                    state.flushScheduled = false
                    state.pingTask = eventLoop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { _ in
                        let actions = self.state.withLockedValue { $0.machine.pingTimerFired() }
                        self.perform(actions, channel: nil)
                    }
                    let promise = state.connectPromise
                    state.connectPromise = nil
                    return (buffer, chunks, admitted, promise)
                }
        if buffer.readableBytes > 0 { channel.write(buffer, promise: nil) }
        write(chunks, to: channel)
        if !admitted.isEmpty {
            complete(admitted)
            flushOutbound()
        }
        logger.info("connected", metadata: ["server": "\(server)", "reconnect": "\(isReconnect)"])
        events.yield(isReconnect ? .reconnected(server: server.description) : .connected(server: server.description))
        connectPromise?.succeed()
    }
}
