// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Logging
import NIOConcurrencyHelpers
import PostgresKit
import PostgresNIO
public import SQLKit

/// The production store: a `PostgresClient` connection pool.
///
/// The store owns the pool's run loop: it starts with the store and stops in ``shutdown()``.
public final class PostgresStore: SQLStore {
    public let engine = SQLEngine.postgres
    private let client: PostgresClient
    private let runner: Task<Void, Never>
    /// How long a request waits for a connection before it is answered 503 `store_unavailable` (while PostgreSQL
    /// is down the pool keeps reconnecting in the background; requests should not hang meanwhile).
    public let leaseTimeout: Duration

    /// ``leaseTimeout`` unless configured (`database_lease_timeout_seconds`).
    public static let defaultLeaseTimeout: Duration = .seconds(3)

    /// Creates a store for a `postgres://user:password@host:port/database?sslmode=…` URL and starts its pool.
    public init(url: String, leaseTimeout: Duration = PostgresStore.defaultLeaseTimeout, logger: Logger) throws {
        let client = PostgresClient(configuration: try PostgresURL.parse(url), backgroundLogger: logger)
        self.client = client
        self.leaseTimeout = leaseTimeout
        self.runner = Task { await client.run() }
    }

    public func withDatabase<Result: Sendable>(
        _ body: @Sendable (any SQLDatabase) async throws -> Result
    ) async throws -> Result {
        // The task group in withLeasedConnection ends before this call returns, so `body` does not escape.
        try await withoutActuallyEscaping(body) { body in
            try await withLeasedConnection { connection in try await body(connection.sql(queryLogLevel: .trace)) }
        }
    }

    public func transaction<Result: Sendable>(
        _ body: @Sendable (any SQLDatabase) async throws -> Result
    ) async throws -> Result {
        try await withoutActuallyEscaping(body) { body in
            try await withLeasedConnection { connection in
                try await Self.runTransaction(on: connection.sql(queryLogLevel: .trace), body)
            }
        }
    }

    /// Runs `body` on a pooled connection; gives up with ``StoreUnavailable`` when none is leased within
    /// ``leaseTimeout`` (the body itself is never interrupted by the timer once it has a connection).
    private func withLeasedConnection<Result: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        let client = self.client
        let timeout = leaseTimeout
        let leased = NIOLockedValueBox(false)
        do {
            return try await withThrowingTaskGroup(of: Result?.self) { group in
                group.addTask {
                    try await client.withConnection { connection in
                        leased.withLockedValue { $0 = true }
                        return try await body(connection)
                    }
                }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    if !leased.withLockedValue({ $0 }) {
                        throw StoreUnavailable(detail: "no PostgreSQL connection within \(timeout)")
                    }
                    return nil
                }
                while let next = try await group.next() {
                    if let result = next {
                        group.cancelAll()
                        return result
                    }
                }
                throw StoreUnavailable(detail: "the PostgreSQL request ended without a result")
            }
        } catch let error where StoreUnavailable.classify(error) != nil {
            throw StoreUnavailable.classify(error)!
        }
    }

    public func shutdown() async throws {
        runner.cancel()
        await runner.value
    }
}
