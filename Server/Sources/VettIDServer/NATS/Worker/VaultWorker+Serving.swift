// The vault worker's message loop: bounded concurrent processing, publishing the answers, watching events.

import Logging
import NATSClient
import NIOConcurrencyHelpers
import NIOCore
import VettIDMessaging

extension VaultWorker {
    /// Processes the subscription's messages, at most `concurrency` at once, until it ends; then waits for
    /// the requests in flight.
    static func serve(
        _ subscription: NATSSubscription, client: NATSClient, processor: VaultRequestProcessor, concurrency: Int,
        logger: Logger, counters: NIOLockedValueBox<Statistics>
    ) async {
        await withTaskGroup(of: Void.self) { group in
            var inFlight = 0
            for await message in subscription {
                if inFlight >= concurrency {
                    _ = await group.next()
                    inFlight -= 1
                }
                inFlight += 1
                counters.withLockedValue {
                    $0.received += 1
                    $0.inFlight += 1
                }
                group.addTask {
                    await answer(message, client: client, processor: processor, logger: logger, counters: counters)
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
