// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import NATSClient
import NIOCore
import VettIDClient
import VettIDMessaging

/// Drops the second copy of a message that arrived on two connections while a token swap overlapped them.
///
/// A message's identity is, in order:
/// 1. its `Nats-Msg-Id` header (``OwnerSpaceClient`` sets it to the request id on every publish; publishers that
///    want exactly-once delivery across swaps should set it too);
/// 2. for a `VaultResponse` with a `request_id`: the subject, the response type and the request id (the vault
///    answers each request once);
/// 3. otherwise none: such a message is always delivered (it may arrive twice if it was published during the
///    few milliseconds two connections overlap).
///
/// Only the newest ``capacity`` identities are remembered (a bounded window): a copy arriving later than that many
/// other identified messages is not recognised.
public struct NatsMessageDeduplicator: Sendable {
    /// The header carrying a message id (the name JetStream uses for deduplication too).
    public static let messageIDHeader = "Nats-Msg-Id"

    /// How many identities are remembered.
    public let capacity: Int
    private var seen: Set<String> = []
    private var order: [String] = []
    private var head = 0

    /// Creates a deduplicator remembering `capacity` identities (at least 1).
    public init(capacity: Int = 4096) {
        self.capacity = max(1, capacity)
        order.reserveCapacity(self.capacity)
    }

    /// Whether `message` was already seen (and remembers it if not).
    public mutating func isDuplicate(_ message: NATSMessage) -> Bool {
        guard let key = Self.identity(of: message) else { return false }
        return isDuplicate(key: key)
    }

    /// Whether `key` was already seen (and remembers it if not).
    public mutating func isDuplicate(key: String) -> Bool {
        if seen.contains(key) { return true }
        if order.count < capacity {
            order.append(key)
        } else {
            seen.remove(order[head])
            order[head] = key
            head = (head + 1) % capacity
        }
        seen.insert(key)
        return false
    }

    /// The identity used for deduplication, or `nil` when the message has none.
    public static func identity(of message: NATSMessage) -> String? {
        if let id = message.headers?[messageIDHeader], !id.isEmpty { return "id:\(id)" }
        guard message.payload.readableBytes > 0,
            message.payload.getInteger(at: message.payload.readerIndex, as: UInt8.self) == UInt8(ascii: "{"),
            let response = try? VaultResponse.decode(message.payload.readableBytesView),
            let requestID = response.requestID
        else { return nil }
        return "response:\(message.subject):\(response.typeName):\(requestID)"
    }
}
