// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import NATSClient
import NIOCore
import Testing
import VettIDMessaging

@testable import VettIDClient
@testable import VettIDNats

@Suite("NATS message deduplication")
struct NatsMessageDeduplicatorTests {
    func message(_ subject: String, id: String? = nil, payload: [UInt8] = Array("x".utf8)) -> NATSMessage {
        NATSMessage(
            subject: subject, headers: id.map { NATSHeaders([(NatsMessageDeduplicator.messageIDHeader, $0)]) },
            payload: ByteBuffer(bytes: payload))
    }

    /// Feeds `messages` in order; returns which were duplicates.
    func duplicates(_ deduplicator: inout NatsMessageDeduplicator, _ messages: [NATSMessage]) -> [Bool] {
        messages.map { deduplicator.isDuplicate($0) }
    }

    @Test("a Nats-Msg-Id seen before is a duplicate; different ids are not")
    func byMessageID() {
        var deduplicator = NatsMessageDeduplicator()
        let result = duplicates(&deduplicator, [message("a", id: "1"), message("a", id: "1"), message("a", id: "2")])
        #expect(result == [false, true, false])
    }

    @Test("vault responses are identified by subject, type and request id; other messages have no identity")
    func byResponse() {
        var deduplicator = NatsMessageDeduplicator()
        let status = VaultResponse.error(requestID: "r-1", VaultMessageError(.unavailable, "down"), timestamp: 1)
            .encoded()
        let result = duplicates(
            &deduplicator,
            [
                message("s", payload: status), message("s", payload: status), message("other", payload: status),
                message("s"), message("s"),
            ]
        )
        #expect(result == [false, true, false, false, false], "messages without identity are always delivered")
        let broadcast = VaultResponse.eventTypes(requestID: nil, types: [], timestamp: 1).encoded()
        #expect(NatsMessageDeduplicator.identity(of: message("s", payload: broadcast)) == nil)
    }

    @Test("only the newest `capacity` identities are remembered")
    func boundedWindow() {
        var deduplicator = NatsMessageDeduplicator(capacity: 3)
        let result = ["a", "b", "c", "d", "a", "d", "a"].map { deduplicator.isDuplicate(key: $0) }
        // "a" fell out of the window when "d" arrived, so its second copy is not recognised.
        #expect(result == [false, false, false, false, false, true, true])
    }
}
