// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import NIOConcurrencyHelpers
import NIOCore
import Testing

@testable import VettIDServer

/// The Gate proxy's request body: bounded, and read at most once even when the HTTP client retries.
@Suite struct GateProxyBodyTests {
    /// A body like Hummingbird's: one iterator only (a second one would crash the process); counts iterators.
    struct SingleIteratorBody: AsyncSequence, Sendable {
        typealias Element = ByteBuffer
        let chunks: [ByteBuffer]
        let made = NIOLockedValueBox(0)

        struct AsyncIterator: AsyncIteratorProtocol {
            var remaining: [ByteBuffer]
            mutating func next() async throws -> ByteBuffer? { remaining.isEmpty ? nil : remaining.removeFirst() }
        }

        func makeAsyncIterator() -> AsyncIterator {
            let count = made.withLockedValue {
                $0 += 1; return $0
            }
            precondition(count == 1, "only a single iterator may be created")
            return AsyncIterator(remaining: chunks)
        }
    }

    @Test func aRetriedRequestFailsInsteadOfReadingTheBodyTwice() async throws {
        let base = SingleIteratorBody(chunks: [ByteBuffer(string: "a"), ByteBuffer(string: "b")])
        let body = GateProxyBody(base: base, limit: 10, exceeded: NIOLockedValueBox(false))
        var first = body.makeAsyncIterator()
        #expect(try await first.next() == ByteBuffer(string: "a"))
        // The client retries on a new connection and asks for the body again.
        var second = body.makeAsyncIterator()
        await #expect(throws: GateProxyBody<SingleIteratorBody>.Replayed.self) { _ = try await second.next() }
        #expect(base.made.withLockedValue { $0 } == 1)
        #expect(try await first.next() == ByteBuffer(string: "b"))
        #expect(try await first.next() == nil)
    }

    @Test func aBodyOverTheLimitIsRefusedWhileStreaming() async throws {
        let exceeded = NIOLockedValueBox(false)
        let body = GateProxyBody(
            base: SingleIteratorBody(chunks: [ByteBuffer(string: "123456"), ByteBuffer(string: "78901")]), limit: 10,
            exceeded: exceeded)
        var iterator = body.makeAsyncIterator()
        _ = try await iterator.next()
        await #expect(throws: GateProxyBody<SingleIteratorBody>.TooLarge.self) { _ = try await iterator.next() }
        #expect(exceeded.withLockedValue { $0 })
    }
}
