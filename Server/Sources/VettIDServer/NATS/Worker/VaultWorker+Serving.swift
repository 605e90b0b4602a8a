// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The vault worker's message lanes: bounded concurrent processing, publishing the answers, watching events.

import Logging
import NATSClient
import NIOConcurrencyHelpers
import NIOCore
import VettIDCore
import VettIDMessaging

extension VaultWorker {
    /// Processes the subscription's messages with `concurrency` lanes until it ends; returns once every lane
    /// has answered its last request.
    ///
    /// Each lane takes the next message when it is free (`NATSSubscription.nextMessage()`), so a slow handler
    /// holds one lane and the others go on; under load a lane takes the next buffered request without
    /// suspending, and no task is created per request.
    static func serve(
        _ subscription: NATSSubscription, client: NATSClient, processor: VaultRequestProcessor,
        sessions: VaultSessionService?, concurrency: Int, logger: Logger, counters: NIOLockedValueBox<Statistics>
    ) async {
        await withDiscardingTaskGroup { group in
            for _ in 0..<concurrency {
                group.addTask {
                    while let message = await subscription.nextMessage() {
                        counters.withLockedValue {
                            $0.received += 1
                            $0.inFlight += 1
                        }
                        if let sessions, let parsed = VaultNamespace.parseRequestSubject(message.subject),
                            parsed.type == VaultNamespace.sessionTypeToken
                                || parsed.type.hasPrefix(VaultNamespace.sealedTypeToken + ".")
                        {
                            await answerSession(
                                message, namespace: parsed.namespace, type: parsed.type, client: client,
                                sessions: sessions, registry: processor.registry, logger: logger, counters: counters)
                        } else {
                            await answer(
                                message, client: client, processor: processor, logger: logger, counters: counters)
                        }
                    }
                }
            }
        }
    }

    static func answer(
        _ message: NATSMessage, client: NATSClient, processor: VaultRequestProcessor, logger: Logger,
        counters: NIOLockedValueBox<Statistics>
    ) async {
        let outcome = await processor.process(
            subject: message.subject, replyTo: message.replyTo, payload: message.payload.readableBytesView,
            logger: logger)
        var failures: UInt64 = 0
        for publication in outcome.publications {
            do {
                try client.publish(publication.payload, to: publication.subject)
            } catch {
                failures += 1
                logger.warning(
                    "publishing an answer failed",
                    metadata: ["code": "\(error.code)", "request_id": "\(outcome.response?.requestID ?? "none")"])
            }
        }
        counters.withLockedValue { counters in
            counters.inFlight -= 1
            counters.publishFailures += failures
            guard let response = outcome.response else {
                counters.ignored += 1
                return
            }
            counters.answered += 1
            if !response.isSuccess { counters.errors += 1 }
        }
    }

    /// Answers a sealed-session init (`type` `session`) or envelope (`type` `sealed.{route}`) on the request's
    /// reply subject (when it lies in the member's `forApp.` space, else on `forApp.{type}.response`).
    static func answerSession(
        _ message: NATSMessage, namespace: VaultNamespace, type: String, client: NATSClient,
        sessions: VaultSessionService, registry: VaultHandlerRegistry, logger: Logger,
        counters: NIOLockedValueBox<Statistics>
    ) async {
        let bytes = Array(message.payload.readableBytesView)
        let isHandshake = type == VaultNamespace.sessionTypeToken
        var failed = false
        var reply: [UInt8] = []
        if isHandshake {
            let answer = await sessions.handshake(bytes, memberGUID: namespace.userGUID, logger: logger)
            reply = answer.reply
            failed = answer.refusal != nil
        } else {
            let answer = await sessions.sealed(bytes, namespace: namespace, registry: registry, logger: logger)
            reply = answer.reply
            failed = answer.failure != nil
        }
        let subject = VaultRequestProcessor.answerSubject(
            namespace: namespace, typeToken: type, replyTo: message.replyTo, logger: logger,
            about: VaultRequestLogContext(member: namespace.userGUID, type: type))
        var publishFailed = false
        do {
            try client.publish(reply, to: subject)
        } catch {
            publishFailed = true
            logger.warning("publishing a session answer failed", metadata: ["code": "\(error.code)"])
        }
        counters.withLockedValue { counters in
            counters.inFlight -= 1
            counters.answered += 1
            if failed { counters.errors += 1 }
            if publishFailed { counters.publishFailures += 1 }
            if isHandshake {
                counters.handshakes += 1
            } else {
                counters.sealedRequests += 1
            }
        }
    }

    /// Logs the connection's asynchronous errors (permissions violations, slow consumer) until it closes.
    static func watch(
        _ events: AsyncStream<NATSEvent>, logger: Logger, counters: NIOLockedValueBox<Statistics>
    ) async {
        for await event in events {
            switch event {
            case .error(let error):
                counters.withLockedValue { $0.natsErrors += 1 }
                logger.warning(
                    "nats-server reported an error", metadata: ["code": "\(error.code)", "error": "\(error.message)"])
            case .lameDuckMode:
                logger.notice("nats-server entered lame duck mode; the worker will reconnect elsewhere")
            case .closed(let error?):
                logger.error(
                    "the NATS connection closed", metadata: ["code": "\(error.code)", "error": "\(error.message)"])
            case .connected, .disconnected, .reconnected, .closed(nil), .discoveredServers:
                break
            }
        }
    }
}
