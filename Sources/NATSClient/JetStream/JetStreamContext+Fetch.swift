// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Pull fetch (NATS ADR-13, ADR-37): one pull request per reply subject of its own, a fresh one after a reconnect,
// statuses read as JetStreamPullStatus, idle heartbeats watched.

import NIOCore

extension JetStreamContext {
    /// Fetches up to `batch` messages from the durable pull consumer `consumer` of `stream`.
    ///
    /// The pull request goes to `$JS.API.CONSUMER.MSG.NEXT.<stream>.<consumer>` with a reply subject of its own, so a
    /// late status of an earlier pull (a `408` after a timeout) cannot end this one. The fetch returns when `batch`
    /// messages arrived, or when the server ends the pull: `404` (nothing waits, with `noWait`), `408` (expired),
    /// `409 Message Size Exceeds MaxBytes`. A reconnect while it waits sends a new pull for what is missing, on a new
    /// reply subject, instead of waiting for an answer the old connection will not get.
    ///
    /// When the pull fails after messages arrived, the fetch returns them without the error (acknowledge them; the
    /// next fetch meets the error again if it lasts); when none arrived, it throws.
    ///
    /// - Parameters:
    ///   - batch: The most messages to return (at least 1).
    ///   - consumer: A durable pull consumer.
    ///   - stream: Its stream.
    ///   - expires: How long the server keeps the pull open (not sent with `noWait`).
    ///   - noWait: Answer at once: what waits now, or `404` when nothing does.
    ///   - maxBytes: The most payload bytes to return (the server ends the pull with `409` before a message that
    ///     would exceed it).
    ///   - idleHeartbeat: Ask the server for a heartbeat while idle; hearing nothing for two of them ends the fetch
    ///     (`missedHeartbeat`). Must be below half of `expires`.
    /// - Returns: The messages, in the order the consumer delivered them.
    /// - Throws: ``JetStreamError``: `missedHeartbeat`, `consumerDeleted`, `pullRefused` (a `400` or `409` the server
    ///   answered the pull with), `notEnabled`, `timeout` (no answer at all: on nats-server 2.9 a pull on a consumer
    ///   that does not exist goes unanswered), `cancelled`, `invalidName`, `invalidRequest`, `requestFailed` (also when
    ///   the client closes while the fetch waits).
    public func fetch(
        batch: Int = 1,
        from consumer: String,
        on stream: String,
        expires: Duration = .seconds(30),
        noWait: Bool = false,
        maxBytes: Int? = nil,
        idleHeartbeat: Duration? = nil
    ) async throws(JetStreamError) -> [JetStreamMessage] {
        try Self.checkName(stream, "stream")
        try Self.checkName(consumer, "consumer")
        guard batch >= 1, (maxBytes ?? 1) >= 1, expires > .zero, (idleHeartbeat ?? .seconds(1)) > .zero else {
            throw JetStreamError(.invalidRequest, "a fetch needs a batch, a byte limit and durations above zero")
        }
        let fetch = JetStreamFetch(
            client: client,
            subject: "\(apiPrefix).CONSUMER.MSG.NEXT.\(stream).\(consumer)",
            batch: batch,
            expires: noWait ? nil : expires,
            answerWithin: noWait ? timeout : expires + .seconds(1),
            noWait: noWait,
            maxBytes: maxBytes,
            idleHeartbeat: idleHeartbeat
        )
        return try await fetch.run()
    }
}

/// The body of a pull request.
struct JetStreamPullRequest: Encodable {
    var batch: Int
    var expires: Duration?
    var noWait: Bool
    var maxBytes: Int?
    var idleHeartbeat: Duration?

    private enum CodingKeys: String, CodingKey {
        case batch, expires
        case noWait = "no_wait"
        case maxBytes = "max_bytes"
        case idleHeartbeat = "idle_heartbeat"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(batch, forKey: .batch)
        try container.encodeNanoseconds(expires, forKey: .expires)
        if noWait { try container.encode(true, forKey: .noWait) }
        try container.encodeIfPresent(maxBytes, forKey: .maxBytes)
        try container.encodeNanoseconds(idleHeartbeat, forKey: .idleHeartbeat)
    }
}

/// One fetch: its pulls (a new one after each reconnect), what arrived, and the clocks that end it.
struct JetStreamFetch {
    let client: NATSClient
    let subject: String
    let batch: Int
    let expires: Duration?
    /// When the fetch gives up on hearing from the server at all.
    let answerWithin: Duration
    let noWait: Bool
    let maxBytes: Int?
    let idleHeartbeat: Duration?

    /// What the fetch waits for, from the tasks that feed it.
    private enum Event: Sendable {
        case delivery(pull: Int, NATSMessage)
        case reconnected
        case closed
        case tick
    }

    func run() async throws(JetStreamError) -> [JetStreamMessage] {
        let clock = ContinuousClock()
        let start = clock.now
        let (events, continuation) = AsyncStream<Event>.makeStream()
        let clientEvents = client.makeEventStream()
        let reconnects = Task {
            for await event in clientEvents {
                switch event {
                case .reconnected: continuation.yield(.reconnected)
                case .closed: continuation.yield(.closed)
                default: continue
                }
            }
        }
        let tick = Self.tickInterval(idleHeartbeat: idleHeartbeat, answerWithin: answerWithin)
        let ticker = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: tick)
                continuation.yield(.tick)
            }
        }
        var pull = 0
        var subscription: NATSSubscription?
        defer {
            subscription?.unsubscribe()
            reconnects.cancel()
            ticker.cancel()
            continuation.finish()
        }
        subscription = try startPull(pull, remaining: batch, expires: expires, continuation)

        var messages: [JetStreamMessage] = []
        var lastHeard = start
        var failure: JetStreamError?
        loop: for await event in events {
            switch event {
            case .delivery(pull: let from, let message):
                if from == pull { lastHeard = clock.now }
                let status = JetStreamPullStatus(message)
                if case .message = status {
                    // A delivery counts whichever pull of this fetch brought it (an earlier one's may still be
                    // buffered after a reconnect); a status counts only for the current pull.
                    guard let delivered = JetStreamMessage(message, client: client) else { continue }
                    messages.append(delivered)
                    if messages.count == batch { break loop }
                    continue
                }
                guard from == pull else { continue }
                switch status {
                case .message, .heartbeat:
                    continue
                case .end:
                    break loop
                case .failure(let error):
                    failure = error
                    break loop
                }
            case .reconnected:
                let left = expires.map { $0 - (clock.now - start) }
                if let left, left <= .zero { break loop }
                subscription?.unsubscribe()
                pull += 1
                lastHeard = clock.now
                do {
                    subscription = try startPull(pull, remaining: batch - messages.count, expires: left, continuation)
                } catch {
                    failure = error
                    break loop
                }
            case .closed:
                failure = JetStreamError(.requestFailed, "the connection closed while the fetch waited")
                break loop
            case .tick:
                let now = clock.now
                if now - start >= answerWithin {
                    failure = JetStreamError(.timeout, "no end of the pull on \(subject) within \(answerWithin)")
                    break loop
                }
                if let idleHeartbeat, now - lastHeard > idleHeartbeat * 2 {
                    failure = JetStreamError(
                        .missedHeartbeat, "nothing from the server for two heartbeats of \(idleHeartbeat)")
                    break loop
                }
            }
        }
        if failure == nil, Task.isCancelled {
            failure = JetStreamError(.cancelled, "the fetch was cancelled")
        }
        if let failure, messages.isEmpty { throw failure }
        return messages
    }

    /// Subscribes a new reply subject, feeds its messages to `continuation` tagged `pull`, and sends the pull.
    private func startPull(
        _ pull: Int,
        remaining: Int,
        expires: Duration?,
        _ continuation: AsyncStream<Event>.Continuation
    ) throws(JetStreamError) -> NATSSubscription {
        let inbox = "\(client.configuration.inboxPrefix).\(NATSNUID.next())"
        let subscription: NATSSubscription
        do {
            subscription = try client.subscribe(to: inbox)
        } catch {
            throw JetStreamError(
                .requestFailed, "cannot subscribe the pull's reply subject: \(error)", underlying: error)
        }
        Task {
            while let message = await subscription.nextMessage() { continuation.yield(.delivery(pull: pull, message)) }
        }
        let request = JetStreamPullRequest(
            batch: remaining, expires: expires, noWait: noWait, maxBytes: maxBytes, idleHeartbeat: idleHeartbeat)
        do {
            try client.publish(try JetStreamJSON.encode(request), to: subject, replyTo: inbox)
        } catch {
            subscription.unsubscribe()
            throw JetStreamError(.requestFailed, "cannot send the pull request: \(error)", underlying: error)
        }
        return subscription
    }

    /// How often the fetch checks its clocks: a quarter heartbeat, at most 100 ms, at least 5 ms.
    static func tickInterval(idleHeartbeat: Duration?, answerWithin: Duration) -> Duration {
        let base = min(idleHeartbeat.map { $0 / 4 } ?? .milliseconds(100), answerWithin / 4, .milliseconds(100))
        return max(base, .milliseconds(5))
    }
}
