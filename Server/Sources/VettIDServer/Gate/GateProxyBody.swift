import NIOConcurrencyHelpers
import NIOCore

/// A request body forwarded as it arrives, refusing to grow past a limit (chunked bodies included).
///
/// The incoming body can be read once. When the HTTP client asks for a second iterator (it retries a request
/// whose pooled connection closed under it), the retry fails with ``Replayed`` instead of reading the body again,
/// which the underlying single-iterator sequence would answer with a crash. Found by schemathesis through the
/// Gate proxy.
struct GateProxyBody<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element == ByteBuffer {
    typealias Element = ByteBuffer

    let base: Base
    let limit: Int
    /// Set when the body went over the limit, whatever the HTTP client makes of the error.
    let exceeded: NIOLockedValueBox<Bool>

    /// Thrown when the body grows past the limit.
    struct TooLarge: Error {}
    /// Thrown by every iterator after the first: the body was already (partly) sent and cannot be sent again.
    struct Replayed: Error {}

    /// Whether an iterator over `base` was handed out.
    let started = NIOLockedValueBox(false)

    struct AsyncIterator: AsyncIteratorProtocol {
        /// `nil` for a second iterator, which only throws ``Replayed``.
        var base: Base.AsyncIterator?
        let limit: Int
        let exceeded: NIOLockedValueBox<Bool>
        var total = 0

        mutating func next() async throws -> ByteBuffer? {
            guard var iterator = base else { throw Replayed() }
            defer { base = iterator }
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
        let first = started.withLockedValue { started in
            defer { started = true }
            return !started
        }
        return AsyncIterator(base: first ? base.makeAsyncIterator() : nil, limit: limit, exceeded: exceeded)
    }
}
