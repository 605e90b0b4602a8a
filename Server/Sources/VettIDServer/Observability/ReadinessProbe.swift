// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import SQLKit

/// What `GET /health/ready` checks: the store answers a query in time, and, when NATS is configured, the server's
/// system connection to nats-server (the one that pushes revocations) is up.
public struct ReadinessProbe: Sendable {
    /// The outcome of one probe.
    public struct Report: Sendable, Equatable {
        /// The store answered `SELECT 1` within ``ReadinessProbe/storeTimeout``.
        public var storeOK: Bool
        /// `nil` when NATS is not configured; else whether the connection is up.
        public var natsConnected: Bool?

        /// Ready when every configured dependency is.
        public var isReady: Bool { storeOK && natsConnected != false }
    }

    /// How long the store may take to answer.
    public static let storeTimeout: Duration = .seconds(2)

    let store: any SQLStore
    let natsConnected: (@Sendable () -> Bool)?

    /// A probe of `store` and, if given, of a NATS connection's state.
    public init(store: any SQLStore, natsConnected: (@Sendable () -> Bool)?) {
        self.store = store
        self.natsConnected = natsConnected
    }

    /// Runs the checks.
    public func check() async -> Report {
        Report(storeOK: await storeAnswers(), natsConnected: natsConnected?())
    }

    private func storeAnswers() async -> Bool {
        let store = self.store
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                (try? await store.withDatabase { db in try await db.raw("SELECT 1 AS ready").first() != nil }) ?? false
            }
            group.addTask {
                try? await Task.sleep(for: Self.storeTimeout)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }
}
