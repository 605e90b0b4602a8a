// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// JSON of the JetStream API: bodies in and out of ByteBuffers, nanosecond durations, and the answer envelope
// whose `error` object becomes a JetStreamError.

import NIOCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

enum JetStreamJSON {
    /// Encodes a request body.
    static func encode(_ value: some Encodable) throws(JetStreamError) -> ByteBuffer {
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return ByteBuffer(bytes: try encoder.encode(value))
        } catch {
            throw JetStreamError(.invalidResponse, "cannot encode the request: \(error)", underlying: error)
        }
    }

    /// Decodes an answer: an `error` object becomes the ``JetStreamError`` it maps to, anything else must decode
    /// as `Response`.
    static func decode<Response: Decodable>(_ type: Response.Type, from payload: ByteBuffer) throws(JetStreamError)
        -> Response
    {
        let data = Data(payload.readableBytesView)
        let decoder = JSONDecoder()
        let envelope: ErrorEnvelope
        do {
            envelope = try decoder.decode(ErrorEnvelope.self, from: data)
        } catch {
            throw JetStreamError(.invalidResponse, "the answer is not a JSON object: \(error)", underlying: error)
        }
        if let apiError = envelope.error { throw JetStreamError(apiError: apiError) }
        do {
            return try decoder.decode(Response.self, from: data)
        } catch {
            throw JetStreamError(.invalidResponse, "unexpected answer: \(error)", underlying: error)
        }
    }

    /// Nanoseconds of a duration, as the API counts them (rounded toward zero, clamped to `Int64`).
    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        let (total, overflowSum) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        return overflowSum ? (seconds < 0 ? .min : .max) : total
    }

    /// A duration from the API's nanoseconds.
    static func duration(nanoseconds: Int64) -> Duration { .nanoseconds(nanoseconds) }

    private struct ErrorEnvelope: Decodable {
        var error: JetStreamAPIError?
    }
}

extension KeyedDecodingContainer {
    /// A limit the API writes as `-1` when unset (and reads `0` as unset): `nil` then.
    func decodeLimit(_ key: Key) throws -> Int64? {
        guard let value = try decodeIfPresent(Int64.self, forKey: key), value > 0 else { return nil }
        return value
    }

    /// A duration in nanoseconds, `nil` when absent or `0`.
    func decodeNanoseconds(_ key: Key) throws -> Duration? {
        guard let value = try decodeIfPresent(Int64.self, forKey: key), value > 0 else { return nil }
        return .nanoseconds(value)
    }
}

extension KeyedEncodingContainer {
    /// A duration as nanoseconds, omitted when `nil`.
    mutating func encodeNanoseconds(_ duration: Duration?, forKey key: Key) throws {
        guard let duration else { return }
        try encode(JetStreamJSON.nanoseconds(duration), forKey: key)
    }
}
