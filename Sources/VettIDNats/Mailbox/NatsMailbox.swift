// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Crypto
public import Logging
public import NATSClient
import NIOConcurrencyHelpers
import NIOCore
public import VettIDMessaging

/// What one catch-up did.
public struct MailboxCatchUpReport: Sendable, Hashable {
    /// Notices handed to the app.
    public var delivered = 0
    /// Messages acknowledged without handing them over again.
    public var duplicates = 0
    /// Messages terminated (`+TERM`): this device can never read them.
    public var terminated = 0
    /// Whether the app's handler threw: that message and the rest of its batch wait for the next catch-up.
    public var stoppedByHandler = false

    public init() {}
}

/// The device's side of its mailbox (docs/protocol.md 7.5): pulls what waited, hands each notice to the app once,
/// in order, acknowledges it after the handler returns, terminates what it can never read and leaves the rest.
///
/// One catch-up runs at a time; a catch-up asked for while one runs makes that one pull once more when it ends, so
/// nothing that arrived meanwhile waits for the next launch. The notices it handed over are remembered across token
/// swaps (the connection changes, this object does not).
public final class NatsMailbox: Sendable {
    /// Reads the device's mailbox key; `nil` when it has none.
    public typealias KeySource = @Sendable () async -> Curve25519.KeyAgreement.PrivateKey?
    /// The app's handler: throwing leaves the notice (and the rest of its batch) for the next catch-up.
    public typealias Handler = @Sendable (MailboxNotice) async throws -> Void

    /// Messages per pull.
    public let batch: Int
    private let key: KeySource
    private let logger: Logger
    /// What a notification extension took from the mailbox for the app: handed over first.
    private let inbox: MailboxNotificationInbox?
    private struct State {
        var intake = MailboxIntake()
        var running = false
        var again = false
        var totalDelivered = 0
    }
    private let state = NIOLockedValueBox(State())

    /// - Parameters:
    ///   - batch: Messages per pull.
    ///   - key: The device's mailbox key.
    ///   - inbox: Notices a notification extension took from the mailbox (the app's manager passes the shared one;
    ///     the extension itself none): each catch-up hands them over before it pulls.
    ///   - logger: Where catch-ups log.
    public init(
        batch: Int = 64, key: @escaping KeySource, inbox: MailboxNotificationInbox? = nil, logger: Logger
    ) {
        self.batch = max(1, batch)
        self.key = key
        self.inbox = inbox
        self.logger = logger
    }

    /// Notices handed to the app since this object was made.
    public var deliveredCount: Int { state.withLockedValue { $0.totalDelivered } }

    /// Pulls `address` over `jetStream` until the consumer has nothing more (or the handler throws), handing each new
    /// notice to `handler`. When a catch-up is already running, asks it to pull again and returns `nil`.
    /// - Throws: `JetStreamError` when a pull or an acknowledgement fails (what was handed over stays handed over).
    public func catchUp(
        _ address: MailboxAddress, over jetStream: JetStreamContext, handler: Handler
    ) async throws(JetStreamError) -> MailboxCatchUpReport? {
        let start = state.withLockedValue { state -> Bool in
            guard !state.running else {
                state.again = true
                return false
            }
            state.running = true
            return true
        }
        guard start else { return nil }
        var report = MailboxCatchUpReport()
        defer { state.withLockedValue { $0.running = false } }
        if let inbox {
            await handOver(from: inbox, handler: handler, into: &report)
            if report.stoppedByHandler { return report }
        }
        let key = await key()
        repeat {
            state.withLockedValue { $0.again = false }
            try await pullAll(address, over: jetStream, key: key, handler: handler, into: &report)
        } while !report.stoppedByHandler && state.withLockedValue({ $0.again })
        return report
    }

    /// Hands the inbox's notices to `handler` in order (skipping any already handed over), then removes them from it.
    private func handOver(
        from inbox: MailboxNotificationInbox, handler: Handler, into report: inout MailboxCatchUpReport
    ) async {
        let kept = await inbox.peek()
        var done = 0
        for notice in kept {
            if state.withLockedValue({ $0.intake.wasHanded(notice.id) }) {
                report.duplicates += 1
            } else {
                do {
                    try await handler(notice)
                } catch {
                    report.stoppedByHandler = true
                    break
                }
                state.withLockedValue { state in
                    state.intake.recordHanded(notice.id)
                    state.totalDelivered += 1
                }
                report.delivered += 1
            }
            done += 1
        }
        guard done > 0 else { return }
        do {
            try await inbox.remove(first: done)
        } catch {
            // They stay kept; the intake remembers them as handed over, so this process does not repeat them.
            logger.warning("NATS: the extension's kept notices could not be cleared", metadata: ["error": "\(error)"])
        }
    }

    private func pullAll(
        _ address: MailboxAddress, over jetStream: JetStreamContext, key: Curve25519.KeyAgreement.PrivateKey?,
        handler: Handler, into report: inout MailboxCatchUpReport
    ) async throws(JetStreamError) {
        while true {
            let messages = try await jetStream.fetch(
                batch: batch, from: address.consumer, on: address.stream, noWait: true)
            for (index, message) in messages.enumerated() {
                let decision = state.withLockedValue { state in
                    state.intake.decide(
                        body: Array(message.payload.readableBytesView), subject: message.subject,
                        messageID: message.headers?[JetStreamContext.messageIDHeader], address: address, key: key)
                }
                switch decision {
                case .terminate(let reason):
                    logger.warning(
                        "NATS: a mailbox message cannot be read here; terminated", metadata: ["reason": "\(reason)"])
                    try message.ack(.terminate)
                    report.terminated += 1
                case .duplicate:
                    try await acknowledge(message, last: index == messages.count - 1)
                    report.duplicates += 1
                case .deliver(let notice):
                    do {
                        try await handler(notice)
                    } catch {
                        logger.info(
                            "NATS: the app's mailbox handler threw; the rest waits",
                            metadata: ["notice": "\(notice.id)"])
                        for waiting in messages[index...] { try waiting.ack(.nak()) }
                        report.stoppedByHandler = true
                        return
                    }
                    state.withLockedValue { state in
                        state.intake.recordHanded(notice.id)
                        state.totalDelivered += 1
                    }
                    report.delivered += 1
                    try await acknowledge(message, last: index == messages.count - 1)
                }
            }
            if messages.count < batch { return }
        }
    }

    /// Acknowledges `message`; the last of a batch waits for the server's confirmation. nats-server processes one
    /// connection's acks in order, so that one confirmation covers the batch: one round trip per pull, not per
    /// message.
    private func acknowledge(_ message: JetStreamMessage, last: Bool) async throws(JetStreamError) {
        if last {
            _ = try await message.ackAcknowledged(.ack)
        } else {
            try message.ack(.ack)
        }
    }
}
