public import Logging
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

    /// Creates a store for a `postgres://user:password@host:port/database?sslmode=…` URL and starts its pool.
    public init(url: String, logger: Logger) throws {
        let client = PostgresClient(configuration: try PostgresURL.parse(url), backgroundLogger: logger)
        self.client = client
        self.runner = Task { await client.run() }
    }

    public func withDatabase<Result: Sendable>(
        _ body: @Sendable (any SQLDatabase) async throws -> Result
    ) async throws -> Result {
        try await client.withConnection { connection in
            try await body(connection.sql(queryLogLevel: .trace))
        }
    }

    public func transaction<Result: Sendable>(
        _ body: @Sendable (any SQLDatabase) async throws -> Result
    ) async throws -> Result {
        try await client.withConnection { connection in
            try await Self.runTransaction(on: connection.sql(queryLogLevel: .trace), body)
        }
    }

    public func shutdown() async throws {
        runner.cancel()
        await runner.value
    }
}
