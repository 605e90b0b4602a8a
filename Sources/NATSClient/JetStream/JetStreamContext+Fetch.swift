// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Pull fetch (NATS ADR-13, ADR-37): one pull request per reply subject of its own, a fresh one after a reconnect,
// statuses read as JetStreamPullStatus, idle heartbeats watched. The watchdog (the fetch's timeout and the missed
// heartbeat) reads a clock the fetch is given: ContinuousClock in use, a clock the test moves in the unit tests.

import NIOConcurrencyHelpers
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
        try await fetch(
            batch: batch, from: consumer, on: stream, expires: expires, noWait: noWait, maxBytes: maxBytes,
            idleHeartbeat: idleHeartbeat, clock: ContinuousClock())
    }

    /// ``fetch(batch:from:on:expires:noWait:maxBytes:idleHeartbeat:)`` with its watchdog (the time it waits for an
    /// answer, the missed heartbeat) on `clock`; the tests pass a clock they move by hand.
    func fetch<WatchdogClock: Clock<Duration>>(
        batch: Int = 1,
        from consumer: String,
        on stream: String,
        expires: Duration = .seconds(30),
        noWait: Bool = false,
        maxBytes: Int? = nil,
        idleHeartbeat: Duration? = nil,
        clock: WatchdogClock
    ) async throws(JetStreamError) -> [JetStreamMessage] {
        try Self.checkName(stream, "stream")
        try Self.checkName(consumer, "consumer")
        guard batch >= 1, (maxBytes ?? 1) >= 1, expires > .zero, (idleHeartbeat ?? .seconds(1)) > .zero else {
            throw JetStreamError(.invalidRequest, "a fetch needs a batch, a byte limit and durations above zero")
        }
        let fetch = JetStreamFetch(
            client: client,
            stream: stream,
            consumer: consumer,
            subject: "\(apiPrefix).CONSUMER.MSG.NEXT.\(stream).\(consumer)",
            batch: batch,
            expires: noWait ? nil : expires,
            answerWithin: noWait ? timeout : expires + .seconds(1),
            noWait: noWait,
            maxBytes: maxBytes,
            idleHeartbeat: idleHeartbeat,
            clock: clock
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

    /// The JSON body, written directly (a fetch sends one per pull): the members in `JetStreamJSON.encode`'s sorted
    /// order, numbers only, so the bytes are those of the `Encodable` form (a test compares them).
    var body: ByteBuffer {
        var json = "{\"batch\":\(batch)"
        if let expires { json += ",\"expires\":\(JetStreamJSON.nanoseconds(expires))" }
        if let idleHeartbeat { json += ",\"idle_heartbeat\":\(JetStreamJSON.nanoseconds(idleHeartbeat))" }
        if let maxBytes { json += ",\"max_bytes\":\(maxBytes)" }
        if noWait { json += ",\"no_wait\":true" }
        json += "}"
        return ByteBuffer(string: json)
    }
}

/// One fetch: its pulls (a new one after each reconnect), what arrived, and the watchdog that ends it.
///
/// Each pull has a ``JetStreamPullInbox`` the connection delivers into; the fetch waits on the current one, which
/// also hears of reconnects (an event listener), of the watchdog's alarm and of cancellation.
struct JetStreamFetch<WatchdogClock: Clock<Duration>> {
    let client: NATSClient
    let stream: String
    let consumer: String
    /// Where pulls are sent.
    let subject: String
    let batch: Int
    let expires: Duration?
    /// When the fetch gives up on hearing from the server at all.
    let answerWithin: Duration
    let noWait: Bool
    let maxBytes: Int?
    let idleHeartbeat: Duration?
    /// The clock the watchdog reads and sleeps on.
    let clock: WatchdogClock

    /// The pull the fetch waits on: where reconnects and alarms are signalled.
    private typealias CurrentPull = NIOLockedValueBox<(inbox: JetStreamPullInbox, sid: UInt64)?>

    func run() async throws(JetStreamError) -> [JetStreamMessage] {
        let current = CurrentPull(nil)
        let listener = client.addEventListener { event in
            guard case .reconnected = event else { return }
            current.withLockedValue { $0?.inbox.signal(.reconnected) }
        }
        var watchdog = JetStreamFetchWatchdog(
            start: clock.now, answerWithin: answerWithin, idleHeartbeat: idleHeartbeat)
        // One alarm at a time, at the watchdog's deadline; hearing from the server moves the deadline, so the alarm
        // is set again then (only with heartbeats: without, the deadline never moves). On the production clock the
        // alarm is a timer of the connection's event loop: a task sleeping on the clock cost two wake-ups of another
        // thread per fetch (its start, and its cancellation when the fetch ended first). A test's clock needs the task.
        var cancelAlarm: (@Sendable () -> Void)?
        func setAlarm() {
            cancelAlarm?()
            let deadline = watchdog.deadline
            @Sendable func ring() { current.withLockedValue { $0?.inbox.signal(.alarm) } }
            if clock is ContinuousClock {
                let timer = client.core.eventLoop.scheduleTask(in: TimeAmount(clock.now.duration(to: deadline))) {
                    ring()
                }
                cancelAlarm = { timer.cancel() }
            } else {
                let sleeper = Task { [clock] in
                    do {
                        try await clock.sleep(until: deadline, tolerance: nil)
                        ring()
                    } catch {
                        // Cancelled: a later alarm replaced this one, or the fetch is over.
                    }
                }
                cancelAlarm = { sleeper.cancel() }
            }
        }
        // The server ended the pull (the batch is complete, or a status said so): nothing more comes on its reply
        // subject, so its UNSUB can wait for the next write (the acks, the next pull) instead of waking the event
        // loop for itself. A pull the fetch gave up on (time, cancellation) is unsubscribed at once.
        var pullOver = false
        defer {
            if let listener { client.removeEventListener(listener) }
            cancelAlarm?()
            if let (_, sid) = current.withLockedValue({ $0 }) { client.unsubscribe(sid: sid, flush: !pullOver) }
        }
        guard listener != nil else {
            throw JetStreamError(.requestFailed, "the client is closed")
        }
        var inbox = try startPull(remaining: batch, expires: expires, current)
        setAlarm()

        var messages: [JetStreamMessage] = []
        messages.reserveCapacity(batch)
        var failure: JetStreamError?
        var update = await inbox.next()
        loop: while true {
            for message in update.deliveries {
                // A delivery counts whichever pull of this fetch brought it.
                guard let delivered = JetStreamMessage(message, client: client, stream: stream, consumer: consumer)
                else { continue }
                messages.append(delivered)
                if messages.count == batch {
                    pullOver = true
                    break loop
                }
            }
            if update.heard, idleHeartbeat != nil {
                watchdog.heard(at: clock.now)
                setAlarm()
            }
            switch update.ending {
            case .end?:
                pullOver = true
                break loop
            case .failure(let error)?:
                failure = error
                break loop
            case .message?, .heartbeat?, nil:
                break
            }
            if update.cancelled { break loop }
            if update.closed {
                failure = JetStreamError(.requestFailed, "the connection closed while the fetch waited")
                break loop
            }
            if update.alarm {
                if let expired = watchdog.failure(at: clock.now, subject: subject) {
                    failure = expired
                    break loop
                }
                setAlarm()
            }
            if update.reconnected {
                let now = clock.now
                let left = expires.map { $0 - watchdog.start.duration(to: now) }
                if let left, left <= .zero { break loop }
                if idleHeartbeat != nil {
                    watchdog.heard(at: now)
                    setAlarm()
                }
                let previous = inbox
                do {
                    inbox = try startPull(remaining: batch - messages.count, expires: left, current)
                } catch {
                    failure = error
                    break loop
                }
                // What the lost pull still took in before it was left: its deliveries count; a reconnect signalled
                // to it after the switch is this pull's to answer.
                var rest = previous.takeNow()
                rest.ending = nil
                rest.heard = false
                rest.alarm = false
                rest.closed = false
                if !rest.deliveries.isEmpty || rest.reconnected || rest.cancelled {
                    update = rest
                    continue loop
                }
            }
            update = await inbox.next()
        }
        if failure == nil, Task.isCancelled {
            failure = JetStreamError(.cancelled, "the fetch was cancelled")
        }
        if let failure, messages.isEmpty { throw failure }
        return messages
    }

    /// Subscribes a new reply subject with its own inbox, makes it the current pull (unsubscribing the previous
    /// one), and sends the pull.
    private func startPull(
        remaining: Int,
        expires: Duration?,
        _ current: CurrentPull
    ) throws(JetStreamError) -> JetStreamPullInbox {
        let inbox = JetStreamPullInbox(
            subject: "\(client.configuration.inboxPrefix).\(NATSNUID.next())", batch: remaining,
            wakesOnHearing: idleHeartbeat != nil)
        let sid: UInt64
        do {
            // The pull's publish right after flushes the SUB with it.
            sid = try client.subscribe(to: inbox.subject, sink: inbox, flush: false)
        } catch {
            throw JetStreamError(
                .requestFailed, "cannot subscribe the pull's reply subject: \(error)", underlying: error)
        }
        let previous = current.withLockedValue { pull in
            defer { pull = (inbox, sid) }
            return pull?.sid
        }
        if let previous { client.unsubscribe(sid: previous) }
        let request = JetStreamPullRequest(
            batch: remaining, expires: expires, noWait: noWait, maxBytes: maxBytes, idleHeartbeat: idleHeartbeat)
        do {
            try client.publish(request.body, to: subject, replyTo: inbox.subject)
        } catch {
            throw JetStreamError(.requestFailed, "cannot send the pull request: \(error)", underlying: error)
        }
        return inbox
    }
}

/// When a fetch gives up: `answerWithin` after it started without an end of the pull, or two idle heartbeats after
/// it last heard from its current pull. Pure: the fetch tells it what it heard and asks at its ``deadline``.
struct JetStreamFetchWatchdog<Instant: InstantProtocol<Duration>> {
    /// When the fetch started.
    let start: Instant
    /// How long the fetch waits for the end of its pull.
    let answerWithin: Duration
    /// The heartbeat the fetch asked for; `nil` for none (then silence ends nothing before `answerWithin`).
    let idleHeartbeat: Duration?
    /// When the fetch last heard from its current pull (or sent it).
    private(set) var lastHeard: Instant

    init(start: Instant, answerWithin: Duration, idleHeartbeat: Duration?) {
        self.start = start
        self.answerWithin = answerWithin
        self.idleHeartbeat = idleHeartbeat
        self.lastHeard = start
    }

    /// The fetch heard from its current pull at `instant` (a message, a status, or a new pull after a reconnect).
    mutating func heard(at instant: Instant) {
        lastHeard = max(lastHeard, instant)
    }

    /// The first instant at which ``failure(at:subject:)`` can answer an error.
    var deadline: Instant {
        let end = start.advanced(by: answerWithin)
        guard let idleHeartbeat else { return end }
        return min(end, lastHeard.advanced(by: idleHeartbeat * 2))
    }

    /// Why the fetch ends at `now`: `timeout`, `missedHeartbeat`, or `nil` while neither is due.
    func failure(at now: Instant, subject: String) -> JetStreamError? {
        if start.duration(to: now) >= answerWithin {
            return JetStreamError(.timeout, "no end of the pull on \(subject) within \(answerWithin)")
        }
        if let idleHeartbeat, lastHeard.duration(to: now) >= idleHeartbeat * 2 {
            return JetStreamError(
                .missedHeartbeat, "nothing from the server for two heartbeats of \(idleHeartbeat)")
        }
        return nil
    }
}
