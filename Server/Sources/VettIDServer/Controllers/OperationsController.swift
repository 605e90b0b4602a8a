// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Hummingbird
import Logging
import OpenAPIRuntime
import VettIDAPI

/// What operators and orchestrators ask: liveness (`GET /health`), readiness (`GET /ready`) and, when a metrics
/// token is configured, the Prometheus metrics (`GET /metrics`, a raw route that ``routes()`` returns).
struct OperationsController: Sendable {
    let store: any SQLStore
    /// Whether the NATS account publisher is connected; `nil` without `nats_url`.
    let natsConnected: (@Sendable () -> Bool)?
    /// `nil` when no `metrics_token` is configured: then there is no `/metrics` route at all.
    let metrics: MetricsEndpoint?

    init(store: any SQLStore, natsPublisher: NATSAccountPublisher?, metrics: MetricsEndpoint?) {
        self.store = store
        if let natsPublisher {
            natsConnected = { natsPublisher.isConnected }
        } else {
            natsConnected = nil
        }
        self.metrics = metrics
    }

    /// `GET /metrics` when configured; otherwise empty.
    func routes() -> RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        metrics?.register(on: routes)
        return routes
    }

    func getHealth(_ input: Operations.GetHealth.Input) async throws -> Operations.GetHealth.Output {
        .ok(.init(body: .json(.init(status: "ok", version: VettIDServerInfo.version))))
    }

    func getReadiness(_ input: Operations.GetReadiness.Input) async throws -> Operations.GetReadiness.Output {
        let report = await ReadinessProbe(store: store, natsConnected: natsConnected).check()
        typealias Checks = Components.Schemas.Readiness.ChecksPayload
        let nats: Checks.NatsPayload
        switch report.natsConnected {
        case .none: nats = .notConfigured
        case .some(true): nats = .ok
        case .some(false): nats = .unavailable
        }
        let checks = Checks(store: report.storeOK ? .ok : .failed, nats: nats)
        guard report.isReady else {
            RequestInfo.current?.logger.warning(
                "not ready", metadata: ["store_ok": "\(report.storeOK)", "nats": "\(nats.rawValue)"])
            return .serviceUnavailable(.init(body: .json(.init(status: .notReady, checks: checks))))
        }
        return .ok(.init(body: .json(.init(status: .ready, checks: checks))))
    }
}
