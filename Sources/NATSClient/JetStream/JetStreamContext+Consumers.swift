// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Consumer management: `CONSUMER.CREATE`, `CONSUMER.INFO`, `CONSUMER.DELETE`.

extension JetStreamContext {
    /// Creates a durable pull consumer on `stream`, or updates it when it exists.
    ///
    /// The filter subject goes into the request subject too (`$JS.API.CONSUMER.CREATE.<stream>.<consumer>.<filter>`,
    /// nats-server 2.9 and later), where account permissions can match it; the server refuses a body whose filter
    /// differs from it (`consumerFilterMismatch`). One exception: a client configured `pedantic` leaves a filter with
    /// wildcards out (`$JS.API.CONSUMER.CREATE.<stream>.<consumer>`, the filter in the body only), since nats-server
    /// answers a pedantic client's publish to a subject with `*` or `>` with `-ERR 'Invalid Publish Subject'`. On
    /// nats-server 2.9 a create for an existing consumer changes it to the new configuration.
    ///
    /// - Throws: ``JetStreamError``: `streamNotFound`, `consumerFilterMismatch`, `invalidName`,
    ///   `invalidSubject`, `apiError` for other refusals.
    @discardableResult
    public func createConsumer(
        _ configuration: ConsumerConfiguration,
        on stream: String
    ) async throws(JetStreamError) -> ConsumerInfo {
        try Self.checkName(stream, "stream")
        try Self.checkName(configuration.durableName, "consumer")
        let operation = try createOperation(
            stream: stream, consumer: configuration.durableName, filter: configuration.filterSubject)
        let body = try JetStreamJSON.encode(ConsumerCreateRequest(streamName: stream, configuration: configuration))
        return try await request(operation, body: body, as: ConsumerInfo.self)
    }

    /// A consumer's configuration and progress.
    ///
    /// - Throws: ``JetStreamError``: `consumerNotFound`, `streamNotFound`, `invalidName`.
    public func consumerInfo(_ name: String, on stream: String) async throws(JetStreamError) -> ConsumerInfo {
        try Self.checkName(stream, "stream")
        try Self.checkName(name, "consumer")
        return try await request("CONSUMER.INFO.\(stream).\(name)", as: ConsumerInfo.self)
    }

    /// Deletes a consumer; its messages stay in the stream.
    ///
    /// - Throws: ``JetStreamError``: `consumerNotFound`, `streamNotFound`, `invalidName`.
    public func deleteConsumer(_ name: String, on stream: String) async throws(JetStreamError) {
        try Self.checkName(stream, "stream")
        try Self.checkName(name, "consumer")
        let answer = try await request("CONSUMER.DELETE.\(stream).\(name)", as: JetStreamSuccess.self)
        guard answer.success else { throw JetStreamError(.invalidResponse, "consumer \(name) was not deleted") }
    }

    /// The create operation of `consumer` on `stream`: `CONSUMER.CREATE.<stream>.<consumer>[.<filter>]`, the
    /// filter left out for a pedantic client when it has wildcards.
    func createOperation(stream: String, consumer: String, filter: String?) throws(JetStreamError) -> String {
        var operation = "CONSUMER.CREATE.\(stream).\(consumer)"
        if let filter {
            guard NATSSubjectValidator.isValidSubscribeSubject(filter) else {
                throw JetStreamError(.invalidSubject, "invalid filter subject \(filter)")
            }
            if !client.configuration.pedantic || Self.isLiteral(filter) { operation += ".\(filter)" }
        }
        return operation
    }

    /// Whether `subject` has no wildcard token.
    static func isLiteral(_ subject: String) -> Bool {
        !subject.split(separator: ".", omittingEmptySubsequences: false).contains { $0 == "*" || $0 == ">" }
    }
}

/// The body of a consumer create request.
struct ConsumerCreateRequest: Encodable {
    var streamName: String
    var configuration: ConsumerConfiguration

    private enum CodingKeys: String, CodingKey {
        case streamName = "stream_name"
        case configuration = "config"
    }
}
