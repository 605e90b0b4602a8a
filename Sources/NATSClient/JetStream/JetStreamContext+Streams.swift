// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Stream management: `STREAM.CREATE`, `STREAM.UPDATE`, `STREAM.INFO`, `STREAM.DELETE`.

extension JetStreamContext {
    /// Creates a stream.
    ///
    /// Creating a stream that exists with the same configuration succeeds and changes nothing.
    ///
    /// - Throws: ``JetStreamError``: `streamNameInUse` (a stream of that name has another configuration),
    ///   `subjectsOverlap`, `invalidName`, `apiError` for other refusals.
    @discardableResult
    public func createStream(_ configuration: StreamConfiguration) async throws(JetStreamError) -> StreamInfo {
        try Self.checkName(configuration.name, "stream")
        return try await request(
            "STREAM.CREATE.\(configuration.name)", body: JetStreamJSON.encode(configuration), as: StreamInfo.self)
    }

    /// Changes a stream's configuration (the storage and some other fields cannot change).
    ///
    /// - Throws: ``JetStreamError``: `streamNotFound`, `invalidName`, `apiError` for a change the server refuses.
    @discardableResult
    public func updateStream(_ configuration: StreamConfiguration) async throws(JetStreamError) -> StreamInfo {
        try Self.checkName(configuration.name, "stream")
        return try await request(
            "STREAM.UPDATE.\(configuration.name)", body: JetStreamJSON.encode(configuration), as: StreamInfo.self)
    }

    /// A stream's configuration and state.
    ///
    /// - Throws: ``JetStreamError``: `streamNotFound`, `invalidName`.
    public func streamInfo(_ name: String) async throws(JetStreamError) -> StreamInfo {
        try Self.checkName(name, "stream")
        return try await request("STREAM.INFO.\(name)", as: StreamInfo.self)
    }

    /// Deletes a stream, its messages and its consumers.
    ///
    /// - Throws: ``JetStreamError``: `streamNotFound`, `invalidName`.
    public func deleteStream(_ name: String) async throws(JetStreamError) {
        try Self.checkName(name, "stream")
        let answer = try await request("STREAM.DELETE.\(name)", as: JetStreamSuccess.self)
        guard answer.success else { throw JetStreamError(.invalidResponse, "stream \(name) was not deleted") }
    }
}

/// The answer of a delete: `{"success":true}`.
struct JetStreamSuccess: Decodable {
    var success: Bool
}
