// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import CoreMetrics
import NIOConcurrencyHelpers
public import Prometheus
public import VettIDCore

/// The server's metrics, recorded through swift-metrics into a Prometheus registry that belongs to this server
/// (no process-wide bootstrap, so several servers in one process, as in tests, keep their own numbers).
///
/// Names (docs/operations.md, "Metrics"):
/// - `vettid_http_requests_total{method,route,status}` and `vettid_http_request_duration_seconds{…}`
///   (histogram); `route` is the route template (`/vault/invitations/{code}/revoke`, `NotFound`), never the raw path,
///   and `method` is one of the standard methods or `OTHER` (a client cannot mint new series);
/// - `vettid_auth_refusals_total{code}`, `vettid_dpop_refusals_total{code}`, `vettid_rate_limited_total{route}`;
/// - `vettid_argon2_queue_wait_seconds` (histogram) and `vettid_argon2_in_flight` (gauge);
/// - `vettid_nats_worker_requests_total{type,outcome}` (`outcome` is `ok` or the error code);
/// - `vettid_nats_revocation_pushes_total{result}` (`ok` or `failed`);
/// - `vettid_vault_session_handshakes_total{outcome}` and `vettid_vault_sealed_requests_total{outcome}` (`outcome`
///   is `ok` or the refusal's or handler's error code);
/// - APNs: `vettid_apns_pushes_sent_total{environment}`, `vettid_apns_push_failures_total{reason}` (every refused
///   or unanswered request, `reason` one of Apple's documented reasons, `ConnectionError`, `Timeout`, `NotHTTP2`,
///   `StatusNNN` or `Other`), `vettid_apns_pushes_undelivered_total{disposition}` (`drop_token` or `failed`),
///   `vettid_apns_tokens_dropped_total{reason}`, `vettid_apns_wakes_total{outcome}` (`present`, `pushed`,
///   `no_token`), `vettid_apns_retries_total`,
///   `vettid_apns_provider_tokens_signed_total`, `vettid_apns_queue_dropped_total{cause}` (`full`, `invalid`,
///   `stopped`), `vettid_apns_queue_coalesced_total` and the gauge `vettid_apns_queue_depth`.
public struct ServerMetrics: Sendable {
    /// The registry `/metrics` renders.
    public let registry: PrometheusCollectorRegistry
    private let factory: PrometheusMetricsFactory
    /// The request counter and timer per (method, route, status).
    private let requestSeries = SeriesCache<RequestSeriesKey, RequestSeries>()
    /// The worker's request counter per (type, outcome).
    private let workerSeries = SeriesCache<WorkerSeriesKey, CoreMetrics.Counter>()
    /// The sealed-session counters per (metric label, outcome).
    private let sessionSeries = SeriesCache<WorkerSeriesKey, CoreMetrics.Counter>()

    /// Error codes counted as authentication refusals.
    static let authCodes: Set<APIFailure.Code> = [
        .invalidCredentials, .invalidToken, .invalidGrant, .credentialLocked, .assertionInvalid,
        .assertionCounterReplayed, .attestationKeyUnknown, .deviceKeyMismatch,
    ]
    /// Error codes counted as DPoP refusals.
    static let dpopCodes: Set<APIFailure.Code> = [.invalidDPoPProof, .useDPoPNonce]

    /// Metrics into a fresh registry.
    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        var factory = PrometheusMetricsFactory(registry: registry)
        let latency: [Duration] = [
            .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25),
            .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1),
            .milliseconds(2_500), .seconds(5), .seconds(10),
        ]
        factory.defaultDurationHistogramBuckets = latency
        self.factory = factory
        // Present from the first scrape, before any hash runs.
        Meter(label: "vettid_argon2_in_flight", factory: factory).set(0)
    }

    /// One answered HTTP request.
    public func request(method: String, route: String, status: Int, duration: Duration) {
        let key = RequestSeriesKey(
            method: Self.standardMethods.contains(method) ? method : "OTHER", route: route, status: status)
        let series = requestSeries.value(for: key) {
            let dimensions = [("method", key.method), ("route", route), ("status", String(status))]
            return RequestSeries(
                count: Counter(label: "vettid_http_requests_total", dimensions: dimensions, factory: factory),
                duration: Timer(label: "vettid_http_request_duration_seconds", dimensions: dimensions, factory: factory)
            )
        }
        series.count.increment()
        series.duration.recordNanoseconds(Self.nanoseconds(duration))
    }

    /// The methods counted under their own name.
    static let standardMethods: Set<String> = [
        "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT",
    ]

    /// A refused request with its error code: counted by family (authentication, DPoP, rate limit).
    public func refusal(code: APIFailure.Code, route: String) {
        let label = [("code", code.rawValue)]
        if Self.authCodes.contains(code) {
            Counter(label: "vettid_auth_refusals_total", dimensions: label, factory: factory).increment()
        } else if Self.dpopCodes.contains(code) {
            Counter(label: "vettid_dpop_refusals_total", dimensions: label, factory: factory).increment()
        } else if code == .rateLimited || code == .tooManyTokens {
            Counter(label: "vettid_rate_limited_total", dimensions: [("route", route)], factory: factory).increment()
        }
    }

    /// How long a password hash waited for a free slot.
    public func argon2Waited(_ duration: Duration) {
        Timer(label: "vettid_argon2_queue_wait_seconds", factory: factory).recordNanoseconds(Self.nanoseconds(duration))
    }

    /// A hash started (`+1`) or finished (`-1`).
    public func argon2InFlight(_ delta: Int) {
        let meter = Meter(label: "vettid_argon2_in_flight", factory: factory)
        if delta > 0 { meter.increment(by: Double(delta)) } else { meter.decrement(by: Double(-delta)) }
    }

    /// A request the vault worker answered: `outcome` is `ok` or the error code it answered with.
    public func workerRequest(type: String, outcome: String) {
        workerSeries.value(for: WorkerSeriesKey(type: type, outcome: outcome)) {
            Counter(
                label: "vettid_nats_worker_requests_total", dimensions: [("type", type), ("outcome", outcome)],
                factory: factory)
        }.increment()
    }

    /// A sealed-session init the vault workers answered: `outcome` is `ok` (a session was opened) or the refusal's
    /// code.
    public func sessionHandshake(outcome: String) {
        sessionCounter("vettid_vault_session_handshakes_total", outcome: outcome)
    }

    /// A sealed-session envelope the vault workers answered: `outcome` is `ok`, the code of a refusal (plaintext or
    /// sealed) or the code of the handler's sealed failure.
    public func sealedRequest(outcome: String) {
        sessionCounter("vettid_vault_sealed_requests_total", outcome: outcome)
    }

    private func sessionCounter(_ label: String, outcome: String) {
        sessionSeries.value(for: WorkerSeriesKey(type: label, outcome: outcome)) {
            Counter(label: label, dimensions: [("outcome", outcome)], factory: factory)
        }.increment()
    }

    /// A mailbox message the relay published (`ok`: stored, `failed`: to be retried) or a notice it dropped
    /// (`expired`: older than the mailbox's `max_age`).
    public func mailboxMessage(outcome: String) {
        sessionCounter("vettid_mailbox_messages_total", outcome: outcome)
    }

    /// One push of the application account JWT (with its revocations) to nats-server.
    public func revocationPush(succeeded: Bool) {
        Counter(
            label: "vettid_nats_revocation_pushes_total", dimensions: [("result", succeeded ? "ok" : "failed")],
            factory: factory
        ).increment()
    }

    /// An APNs push delivered (200).
    func apnsPushSent(environment: APNSEnvironment) {
        Counter(
            label: "vettid_apns_pushes_sent_total", dimensions: [("environment", environment.rawValue)],
            factory: factory
        ).increment()
    }

    /// An APNs request refused or unanswered; `reason` is already a bounded label.
    func apnsPushFailed(reason: String) {
        Counter(label: "vettid_apns_push_failures_total", dimensions: [("reason", reason)], factory: factory)
            .increment()
    }

    /// An APNs push given up (`drop_token` or `failed`).
    func apnsPushUndelivered(disposition: String) {
        Counter(
            label: "vettid_apns_pushes_undelivered_total", dimensions: [("disposition", disposition)],
            factory: factory
        ).increment()
    }

    /// A device token Apple called bad, handed to the token store for removal.
    func apnsTokenDropped(reason: String) {
        Counter(label: "vettid_apns_tokens_dropped_total", dimensions: [("reason", reason)], factory: factory)
            .increment()
    }

    /// The mailbox relay decided about waking a device: `present` (its app answered: no push), `pushed` (queued),
    /// `no_token` (the device registered none).
    func apnsWake(outcome: String) {
        Counter(label: "vettid_apns_wakes_total", dimensions: [("outcome", outcome)], factory: factory).increment()
    }

    /// An APNs request retried after a back-off.
    func apnsRetry() { Counter(label: "vettid_apns_retries_total", factory: factory).increment() }

    /// A new APNs provider token signed.
    func apnsProviderTokenSigned() {
        Counter(label: "vettid_apns_provider_tokens_signed_total", factory: factory).increment()
    }

    /// A push not queued (`full`, `invalid` or `stopped`).
    func apnsQueueRefused(cause: String) {
        Counter(label: "vettid_apns_queue_dropped_total", dimensions: [("cause", cause)], factory: factory)
            .increment()
    }

    /// A push that replaced one already waiting for its device.
    func apnsQueueCoalesced() { Counter(label: "vettid_apns_queue_coalesced_total", factory: factory).increment() }

    /// Pushes waiting now.
    func apnsQueueDepth(_ depth: Int) { Meter(label: "vettid_apns_queue_depth", factory: factory).set(depth) }

    /// The Prometheus text exposition (format 0.0.4) of everything recorded.
    public func exposition() -> [UInt8] { registry.emitToBuffer() }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}

/// Metrics made once per series key: looking a series up in the Prometheus registry on every record cost more
/// than recording it.
private struct SeriesCache<Key: Hashable & Sendable, Series: Sendable>: Sendable {
    private let made = NIOLockedValueBox([Key: Series]())

    /// The series of `key`, made by `make` the first time.
    func value(for key: Key, make: () -> Series) -> Series {
        made.withLockedValue { made in
            if let known = made[key] { return known }
            let series = make()
            made[key] = series
            return series
        }
    }
}

/// Which request series a request is counted in.
private struct RequestSeriesKey: Hashable, Sendable {
    let method: String
    let route: String
    let status: Int
}

/// Which worker series an answered vault request is counted in.
private struct WorkerSeriesKey: Hashable, Sendable {
    let type: String
    let outcome: String
}

/// The metrics of one request series.
private struct RequestSeries: Sendable {
    let count: CoreMetrics.Counter
    let duration: CoreMetrics.Timer
}
