// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL

/// Keep-alive connections to one Gate upstream: an idle connection is reused (most recently used first), a new
/// one is opened while fewer than ``Settings/maxConnections`` are open, and beyond that a request waits for one.
final class UpstreamPool: Sendable {
    /// Timeouts and the connection limit (from ``GateConfiguration``).
    struct Settings: Sendable {
        var connectTimeout: TimeAmount
        var readTimeout: TimeAmount
        var maxConnections: Int
    }

    private struct State {
        var idle: [UpstreamConnection] = []
        var open = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
        var shutDown = false
    }

    let endpoint: UpstreamEndpoint
    let settings: Settings
    private let tls: NIOSSLContext?
    private let group: any EventLoopGroup
    private let state = NIOLockedValueBox(State())

    /// A pool for `endpoint`; `https` endpoints verify the server against `tlsConfiguration` (the system's trust
    /// roots and the endpoint's host name by default).
    init(
        endpoint: UpstreamEndpoint, settings: Settings,
        tlsConfiguration: TLSConfiguration = .makeClientConfiguration(),
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) throws {
        self.endpoint = endpoint
        self.settings = settings
        self.group = group
        tls = endpoint.tls ? try NIOSSLContext(configuration: tlsConfiguration) : nil
    }

    deinit {
        for connection in state.withLockedValue({ $0.idle }) { connection.close() }
    }

    /// A connection for one exchange: an idle one unless `fresh`, else a new one. Hand it back with
    /// ``release(_:reusable:)`` when the exchange ended.
    func lease(fresh: Bool = false) async throws -> (connection: UpstreamConnection, reused: Bool) {
        while true {
            enum Step {
                case reuse(UpstreamConnection)
                /// Open a new connection; `replacing` is an idle one whose slot it takes (closed first).
                case open(replacing: UpstreamConnection?)
                case wait
            }
            let step = state.withLockedValue { state -> Step? in
                if state.shutDown { return nil }
                if !fresh {
                    while let connection = state.idle.popLast() {
                        if connection.channel.isActive { return .reuse(connection) }
                        state.open -= 1
                    }
                }
                if state.open < settings.maxConnections {
                    state.open += 1
                    return .open(replacing: nil)
                }
                // A retry at the limit takes the slot of an idle connection rather than waiting for a release.
                if fresh, let idle = state.idle.popLast() { return .open(replacing: idle) }
                return .wait
            }
            guard let step else { throw UpstreamFailure(.connectionFailed) }
            switch step {
            case .reuse(let connection):
                return (connection, true)
            case .open(let replaced):
                replaced?.close()
                do {
                    let connection = try await UpstreamConnection.connect(
                        to: endpoint, tls: tls, settings: settings, group: group,
                        onClose: { [weak self] connection in self?.closed(connection) })
                    return (connection, false)
                } catch {
                    release(nil, reusable: false)
                    throw error
                }
            case .wait:
                await withCheckedContinuation { continuation in
                    let resumeNow = state.withLockedValue { state -> Bool in
                        if state.shutDown || state.open < settings.maxConnections || !state.idle.isEmpty { return true }
                        state.waiters.append(continuation)
                        return false
                    }
                    if resumeNow { continuation.resume() }
                }
            }
        }
    }

    /// Ends an exchange: a reusable connection becomes idle (unless the pool shut down), any other is closed and
    /// no longer counts. Wakes one waiter.
    func release(_ connection: UpstreamConnection?, reusable: Bool) {
        let (kept, waiter) = state.withLockedValue { state -> (Bool, CheckedContinuation<Void, Never>?) in
            let kept = reusable && !state.shutDown && connection != nil
            if kept, let connection {
                state.idle.append(connection)
            } else {
                state.open -= 1
            }
            return (kept, state.waiters.isEmpty ? nil : state.waiters.removeFirst())
        }
        if !kept { connection?.close() }
        waiter?.resume()
    }

    /// A connection closed: if it was idle, it no longer counts.
    private func closed(_ connection: UpstreamConnection) {
        let waiter = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
            guard let index = state.idle.firstIndex(where: { $0 === connection }) else { return nil }
            state.idle.remove(at: index)
            state.open -= 1
            return state.waiters.isEmpty ? nil : state.waiters.removeFirst()
        }
        waiter?.resume()
    }

    /// Closes the idle connections and wakes every waiter; later leases fail and later releases close theirs.
    func shutdown() {
        let (idle, waiters) = state.withLockedValue { state in
            state.shutDown = true
            defer {
                state.open -= state.idle.count
                state.idle = []
                state.waiters = []
            }
            return (state.idle, state.waiters)
        }
        for connection in idle { connection.close() }
        for waiter in waiters { waiter.resume() }
    }
}
