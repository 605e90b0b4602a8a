// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// The account's JetStream usage (`$JS.API.INFO`).
public struct JetStreamAccountInfo: Sendable, Equatable, Decodable {
    /// Bytes of memory storage in use.
    public var memory: UInt64
    /// Bytes of file storage in use.
    public var storage: UInt64
    /// Streams of the account.
    public var streams: Int
    /// Consumers of the account.
    public var consumers: Int

    private enum CodingKeys: String, CodingKey {
        case memory, storage, streams, consumers
    }

    /// Decodes the usage; absent counters are 0.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        memory = try container.decodeIfPresent(UInt64.self, forKey: .memory) ?? 0
        storage = try container.decodeIfPresent(UInt64.self, forKey: .storage) ?? 0
        streams = try container.decodeIfPresent(Int.self, forKey: .streams) ?? 0
        consumers = try container.decodeIfPresent(Int.self, forKey: .consumers) ?? 0
    }
}
