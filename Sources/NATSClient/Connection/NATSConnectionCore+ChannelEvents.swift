// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// What the channel reports (on its event loop): active, inactive, errors, TLS, decoded server operations,
// the end of a read batch and writability. Each becomes a state-machine input or a delivery.

import Logging
import NIOConcurrencyHelpers
import NIOCore

extension NATSConnectionCore {
    func channelActive(_ channel: any Channel) {
        eventLoop.assertInEventLoop()
        let timeout = TimeAmount(configuration.connectTimeout)
        let closeNow: Bool = state.withLockedValue { state in
            state.channel = channel
            // close() was called while the TCP connect was in flight: finish closing through this channel.
            if state.machine.state == .closing { return true }
            state.machine.channelActive()
            state.handshakeTimeout = eventLoop.scheduleTask(in: timeout) { [weak channel] in
                self.handshakeTimedOut(channel)
            }
            return false
        }
        if closeNow { channel.close(promise: nil) }
    }

    private func handshakeTimedOut(_ channel: (any Channel)?) {
        let actions: [NATSConnectionStateMachine.Action] = state.withLockedValue { state in
            guard let channel, state.channel === channel, !state.machine.isConnected else { return [] }
            return state.machine.protocolFailure(NATSError(.timeout, "handshake did not finish in time"))
        }
        perform(actions, channel: channel)
    }

    func connectFailed(_ error: any Error) {
        eventLoop.assertInEventLoop()
        logger.debug("connect failed", metadata: ["error": "\(error)"])
        let actions = state.withLockedValue { state in
            state.machine.channelInactive(error: NATSError(.noServers, "\(error)"))
        }
        perform(actions, channel: nil)
    }

    func channelInactive(_ channel: any Channel) {
        eventLoop.assertInEventLoop()
        let actions: [NATSConnectionStateMachine.Action] = state.withLockedValue { state in
            guard state.channel === channel else { return [] }
            state.channel = nil
            state.flushScheduled = false
            state.pingTask?.cancel()
            state.pingTask = nil
            state.handshakeTimeout?.cancel()
            state.handshakeTimeout = nil
            return state.machine.channelInactive()
        }
        perform(actions, channel: nil)
    }

    func errorCaught(_ error: any Error, channel: any Channel) {
        let natsError: NATSError
        if let protocolError = error as? NATSProtocolError {
            natsError = NATSError(.protocolError, protocolError.description)
        } else {
            natsError = NATSError(.notConnected, "\(error)")
        }
        let actions = state.withLockedValue { state in
            state.channel === channel ? state.machine.protocolFailure(natsError) : []
        }
        perform(actions, channel: channel)
    }

    func tlsEstablished(channel: any Channel) {
        let actions = state.withLockedValue { state in
            state.channel === channel ? state.machine.tlsEstablished() : []
        }
        perform(actions, channel: channel)
    }

    func received(_ operation: NATSServerOperation, channel: any Channel) {
        switch operation {
        case .message(let sid, let message):
            deliver([(sid, message)])
        case .ping:
            perform(state.withLockedValue { $0.machine.receivedPing() }, channel: channel)
        case .pong:
            perform(state.withLockedValue { $0.machine.receivedPong() }, channel: channel)
        case .info(let info):
            perform(state.withLockedValue { $0.machine.receivedInfo(info) }, channel: channel)
        case .ok:
            break
        case .error(let text):
            logger.debug("server error", metadata: ["error": "\(text)"])
            perform(state.withLockedValue { $0.machine.receivedError(text) }, channel: channel)
        }
    }

    /// End of a read batch: wake the consumers that got messages in it.
    func readComplete() {
        let queues: [any NATSMessageSink] = state.withLockedValue { state in
            guard !state.queuesToWake.isEmpty else { return [] }
            let queues = state.queuesToWake
            state.queuesToWake.removeAll(keepingCapacity: true)
            return queues
        }
        for queue in queues where queue.wake(followUp: false) { wakeAgain(queue) }
    }

    /// Wakes more of `queue`'s waiting consumers after ``NATSMessageQueue/followUpDelay`` if the ones woken are still
    /// busy (see ``NATSMessageQueue/defaultFollowUpLimit``).
    private func wakeAgain(_ queue: any NATSMessageSink) {
        eventLoop.scheduleTask(in: NATSMessageQueue.followUpDelay) {
            if queue.wake(followUp: true) { self.wakeAgain(queue) }
        }
    }

    func writabilityChanged(channel: any Channel) {
        guard channel.isWritable else { return }
        state.withLockedValue { $0.flushScheduled = false }
        flushOutbound()
    }
}
