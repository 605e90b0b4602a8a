// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import NIOConcurrencyHelpers
import NIOCore

/// A request body forwarded as it arrives, refusing to grow past a limit (chunked bodies included).
///
/// The incoming body is one iterator over the connection, which the HTTP server itself reads on after the
/// response (to drain what the handler left unread). Two rules keep the two readers apart:
/// - When the HTTP client asks for a second iterator (it retries a request whose pooled connection closed under
///   it), the retry fails with ``Replayed`` instead of reading the body again.
/// - An upstream may answer before it read the whole upload. The HTTP client then still waits in `next()` for
///   the rest while the response goes out; ``settle()`` (called once the response is written) waits for that
///   read to return and closes the body to the client, so the server's own drain never reads concurrently.
///   Found by schemathesis through the Gate proxy: a concurrent read is a crash in the server's channel.
struct GateProxyBody<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element == ByteBuffer {
    typealias Element = ByteBuffer

    let base: Base
    let limit: Int
    /// Set when the body went over the limit, whatever the HTTP client makes of the error.
    let exceeded: NIOLockedValueBox<Bool>
    private let reads = ProxyBodyReadGate()

    init(base: Base, limit: Int, exceeded: NIOLockedValueBox<Bool>) {
        self.base = base
        self.limit = limit
        self.exceeded = exceeded
    }

    /// Thrown when the body grows past the limit.
    struct TooLarge: Error {}
    /// Thrown by every iterator after the first: the body was already (partly) sent and cannot be sent again.
    struct Replayed: Error {}
    /// Thrown to the HTTP client once the response went out: the rest of the body belongs to the server's drain.
    struct Detached: Error {}

    struct AsyncIterator: AsyncIteratorProtocol {
        /// `nil` for a second iterator, which only throws ``Replayed``.
        var base: Base.AsyncIterator?
        let limit: Int
        let exceeded: NIOLockedValueBox<Bool>
        let reads: ProxyBodyReadGate
        var total = 0

        mutating func next() async throws -> ByteBuffer? {
            guard var iterator = base else { throw Replayed() }
            guard reads.begin() else { throw Detached() }
            defer {
                base = iterator
                reads.end()
            }
            guard let chunk = try await iterator.next() else { return nil }
            total += chunk.readableBytes
            if total > limit {
                exceeded.withLockedValue { $0 = true }
                throw TooLarge()
            }
            return chunk
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(
            base: reads.claimIterator() ? base.makeAsyncIterator() : nil, limit: limit, exceeded: exceeded, reads: reads
        )
    }

    /// Waits until no read of the body is in progress and refuses every later one (``Detached``). Call it after
    /// the response was written and before the handler gives the connection back to the server.
    func settle() async {
        await reads.close()
    }
}

/// Who may read the body now: at most one read at a time, none after ``close()``.
final class ProxyBodyReadGate: Sendable {
    private struct State {
        var iteratorClaimed = false
        var reading = false
        var closed = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = NIOLockedValueBox(State())

    /// Whether this is the first iterator.
    func claimIterator() -> Bool {
        state.withLockedValue { state in
            defer { state.iteratorClaimed = true }
            return !state.iteratorClaimed
        }
    }

    /// Marks a read as started; `false` once closed.
    func begin() -> Bool {
        state.withLockedValue { state in
            if state.closed { return false }
            state.reading = true
            return true
        }
    }

    /// Marks the read as done and wakes whoever waits in ``close()``.
    func end() {
        let waiters = state.withLockedValue { state in
            state.reading = false
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Refuses later reads and returns once the read in progress, if any, is done.
    func close() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLockedValue { state in
                state.closed = true
                if state.reading { state.waiters.append(continuation) }
                return !state.reading
            }
            if done { continuation.resume() }
        }
    }
}
