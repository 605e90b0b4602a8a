// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
public import Logging
import NIOConcurrencyHelpers
public import ServiceLifecycle
public import VettIDCore

/// Sends content-free wake pushes to devices through APNs.
///
/// The mailbox calls ``enqueue(_:)`` when it stores a message for a device that has no live connection; the call
/// never waits for the network. ``run()`` (a ServiceLifecycle `Service`) sends the queued pushes over one HTTP/2
/// connection per environment, with a provider token that is signed once and replaced every
/// ``APNSConfiguration/tokenRefreshInterval``, and reports each push's ending to the ``APNSPushOutcomeHandler``,
/// which removes the tokens Apple calls bad.
///
/// Reactions to APNs' answers (`APNSResponseClassifier`): 200 delivered; 400 `BadDeviceToken` /
/// `DeviceTokenNotForTopic` and 410 `Unregistered` later than the registration drop the token; 403
/// `ExpiredProviderToken` signs a new token and retries once; 429, 5xx, a lost connection or GOAWAY back off with
/// jitter and retry up to ``APNSConfiguration/maxAttempts``; anything else fails with its reason logged. Device tokens
/// and the key are never logged (a token appears as ``APNSPushRequest/tokenLogID``).
public final class APNSProvider: Service, Sendable {
    private let configuration: APNSConfiguration
    private let transport: any APNSTransport
    private let tokens: APNSProviderTokenCache
    private let retry: APNSRetryPolicy
    private let payload: [UInt8]
    private let metrics: ServerMetrics
    private let logger: Logger
    private let outcomes: any APNSPushOutcomeHandler
    private let clock: any WallClock
    private let sleep: @Sendable (Duration) async throws -> Void
    private let jitter: @Sendable () -> Double

    private struct State {
        var queue: APNSPushQueue
        var idle: [CheckedContinuation<APNSPushRequest?, Never>] = []
        var stopped = false
    }

    private let state: NIOLockedValueBox<State>

    /// A provider for `configuration`: reads the `.p8` key and sets up the HTTP/2 clients; sends nothing until
    /// ``run()``.
    public convenience init(
        configuration: APNSConfiguration,
        outcomes: any APNSPushOutcomeHandler,
        metrics: ServerMetrics,
        logger: Logger,
        clock: any WallClock = .system
    ) throws {
        guard let keyFile = configuration.keyFile else {
            throw APNSError(.misconfigured, "apns_key_file is not set")
        }
        let key = try APNSSigningKey.load(path: keyFile)
        try self.init(
            configuration: configuration, key: key,
            transport: APNSHTTPClient(configuration: configuration, logger: logger),
            outcomes: outcomes, metrics: metrics, logger: logger, clock: clock)
    }

    /// A provider over `transport`, signing with `key`; `sleep` waits out back-offs and `jitter` returns values in
    /// `0..<1` (tests pass their own).
    init(
        configuration: APNSConfiguration,
        key: P256.Signing.PrivateKey,
        transport: any APNSTransport,
        outcomes: any APNSPushOutcomeHandler,
        metrics: ServerMetrics,
        logger: Logger,
        clock: any WallClock = .system,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        jitter: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) throws {
        guard let keyID = configuration.keyID, let teamID = configuration.teamID, !configuration.bundleIDs.isEmpty
        else {
            throw APNSError(.misconfigured, "APNs needs apns_key_id, apns_team_id and apns_bundle_ids")
        }
        self.configuration = configuration
        self.transport = transport
        self.tokens = APNSProviderTokenCache(
            keyID: keyID, teamID: teamID, key: key,
            policy: APNSProviderTokenPolicy(refreshInterval: configuration.tokenRefreshInterval), clock: clock,
            onRefresh: { metrics.apnsProviderTokenSigned() })
        self.retry = APNSRetryPolicy(maxAttempts: configuration.maxAttempts)
        self.payload = APNSAlertPayload.bytes(title: configuration.alertTitle, body: configuration.alertBody)
        self.metrics = metrics
        self.logger = logger
        self.outcomes = outcomes
        self.clock = clock
        self.sleep = sleep
        self.jitter = jitter
        self.state = NIOLockedValueBox(State(queue: APNSPushQueue(capacity: configuration.queueCapacity)))
    }

    /// Queues a wake push; returns at once, without waiting for APNs.
    ///
    /// A push for a device that already has one waiting replaces it; when the queue is full the push is dropped
    /// and counted (`vettid_apns_queue_dropped_total`).
    @discardableResult
    public func enqueue(_ request: APNSPushRequest) -> APNSEnqueueResult {
        guard APNSDeviceToken.isWellFormed(request.deviceToken), configuration.bundleIDs.contains(request.topic),
            !request.collapseID.isEmpty, request.collapseID.utf8.count <= 64
        else {
            metrics.apnsQueueRefused(cause: "invalid")
            return .invalid
        }
        typealias Handoff = (worker: CheckedContinuation<APNSPushRequest?, Never>, request: APNSPushRequest)
        let (result, handoff, depth) = state.withLockedValue { state -> (APNSEnqueueResult, Handoff?, Int) in
            if state.stopped { return (.stopped, nil, 0) }
            switch state.queue.offer(request) {
            case .full: return (.queueFull, nil, state.queue.count)
            case .coalesced: return (.coalesced, nil, state.queue.count)
            case .queued:
                // A waiting worker takes the push straight away, under the same lock, so no other worker races it.
                guard !state.idle.isEmpty, let next = state.queue.next() else {
                    return (.queued, nil, state.queue.count)
                }
                return (.queued, (state.idle.removeLast(), next), state.queue.count)
            }
        }
        if let handoff { handoff.worker.resume(returning: handoff.request) }
        switch result {
        case .queueFull:
            metrics.apnsQueueRefused(cause: "full")
            logger.warning("APNs queue full: push dropped", metadata: ["token": "\(request.tokenLogID)"])
        case .coalesced: metrics.apnsQueueCoalesced()
        case .stopped: metrics.apnsQueueRefused(cause: "stopped")
        default: break
        }
        metrics.apnsQueueDepth(depth)
        return result
    }

    /// Pushes waiting to be sent.
    public var queuedCount: Int { state.withLockedValue { $0.queue.count } }

    /// Sends queued pushes until cancelled or a graceful shutdown, with up to
    /// ``APNSConfiguration/maxConcurrentSends`` in flight; then closes the connections. Pushes still waiting are
    /// dropped (a push is a doorbell: the device fetches its mailbox on its next start anyway).
    public func run() async throws {
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                for _ in 0..<max(1, self.configuration.maxConcurrentSends) {
                    group.addTask {
                        while let request = await self.next() { await self.deliver(request) }
                    }
                }
            }
        }
        let left = state.withLockedValue { state in
            state.stopped = true
            return state.queue.count
        }
        if left > 0 { logger.notice("APNs provider stopped", metadata: ["dropped_pushes": "\(left)"]) }
        try await transport.shutdown()
    }

    /// The next push to send, waiting for one; `nil` once the task is cancelled.
    private func next() async -> APNSPushRequest? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<APNSPushRequest?, Never>) in
                let (ready, answer) = state.withLockedValue { state -> (Bool, APNSPushRequest?) in
                    if state.stopped || Task.isCancelled {
                        state.stopped = true
                        return (true, nil)
                    }
                    if let request = state.queue.next() { return (true, request) }
                    state.idle.append(continuation)
                    return (false, nil)
                }
                if ready {
                    continuation.resume(returning: answer)
                    if answer != nil { metrics.apnsQueueDepth(queuedCount) }
                }
            }
        } onCancel: {
            let idle = state.withLockedValue { state in
                state.stopped = true
                defer { state.idle.removeAll() }
                return state.idle
            }
            for worker in idle { worker.resume(returning: nil) }
        }
    }

    /// Sends one push until APNs takes it, refuses it for good, or the attempts run out.
    private func deliver(_ request: APNSPushRequest) async {
        var attempt = 0
        var refreshedToken = false
        let log = ["token": Logger.MetadataValue.string(request.tokenLogID), "apns_id": "\(request.pushID)"]
        while true {
            attempt += 1
            let token: APNSProviderToken
            do {
                token = try tokens.current()
            } catch {
                logger.error("cannot sign the APNs provider token", metadata: ["error": "\(error)"])
                return await finish(
                    request, .failed, status: nil, reason: "ProviderTokenUnavailable", attempts: attempt)
            }
            let wire = APNSWireRequest(
                deviceToken: request.deviceToken, topic: request.topic, pushID: request.pushID,
                collapseID: request.collapseID,
                expiration: clock.unixSeconds() + configuration.expiration.components.seconds, priority: 10,
                pushType: "alert", providerToken: token.jwt, payload: payload)
            var status: Int?
            let reaction: APNSReaction
            do {
                let response = try await transport.send(wire, to: request.environment)
                status = response.status
                reaction = APNSResponseClassifier.reaction(
                    status: response.status, reason: response.reason, timestamp: response.timestamp,
                    registeredAt: request.registeredAt)
            } catch {
                if Task.isCancelled { return }
                logger.info("APNs request got no answer", metadata: log.merging(["error": "\(error)"]) { $1 })
                reaction = APNSResponseClassifier.reaction(toFailure: error)
            }
            if let reason = reaction.reason {
                metrics.apnsPushFailed(reason: APNSResponseClassifier.metricLabel(reason))
            }
            switch reaction {
            case .delivered:
                metrics.apnsPushSent(environment: request.environment)
                logger.debug("APNs push delivered", metadata: log)
                return await finish(request, .delivered, status: status, reason: nil, attempts: attempt)
            case .dropToken(let reason):
                metrics.apnsTokenDropped(reason: APNSResponseClassifier.metricLabel(reason))
                logger.info("APNs refused the device token", metadata: log.merging(["reason": "\(reason)"]) { $1 })
                return await finish(request, .dropToken, status: status, reason: reason, attempts: attempt)
            case .keepToken(let reason):
                logger.info(
                    "APNs called the token unregistered before its registration: kept",
                    metadata: log.merging(["reason": "\(reason)"]) { $1 })
                return await finish(request, .failed, status: status, reason: reason, attempts: attempt)
            case .refreshProviderToken(let reason):
                guard !refreshedToken else {
                    logger.error(
                        "APNs refused a fresh provider token", metadata: log.merging(["reason": "\(reason)"]) { $1 })
                    return await finish(request, .failed, status: status, reason: reason, attempts: attempt)
                }
                refreshedToken = true
                tokens.invalidate(token)
            case .retry(let reason):
                guard let delay = retry.delay(afterAttempt: attempt, jitter: jitter()) else {
                    logger.warning(
                        "APNs push abandoned after retries", metadata: log.merging(["reason": "\(reason)"]) { $1 })
                    return await finish(request, .failed, status: status, reason: reason, attempts: attempt)
                }
                metrics.apnsRetry()
                do { try await sleep(delay) } catch { return }
            case .fail(let reason):
                logger.error("APNs refused the push", metadata: log.merging(["reason": "\(reason)"]) { $1 })
                return await finish(request, .failed, status: status, reason: reason, attempts: attempt)
            }
        }
    }

    private func finish(
        _ request: APNSPushRequest, _ disposition: APNSPushOutcome.Disposition, status: Int?, reason: String?,
        attempts: Int
    ) async {
        if disposition != .delivered { metrics.apnsPushUndelivered(disposition: disposition.rawValue) }
        await outcomes.pushFinished(
            APNSPushOutcome(
                request: request, disposition: disposition, status: status, reason: reason, attempts: attempts))
    }
}
