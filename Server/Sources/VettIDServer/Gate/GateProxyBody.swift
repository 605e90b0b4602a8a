import NIOConcurrencyHelpers
import NIOCore

/// A request body forwarded as it arrives, refusing to grow past a limit (chunked bodies included).
struct GateProxyBody<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element == ByteBuffer {
    typealias Element = ByteBuffer

    let base: Base
    let limit: Int
    /// Set when the body went over the limit, whatever the HTTP client makes of the error.
    let exceeded: NIOLockedValueBox<Bool>

    /// Thrown when the body grows past the limit.
    struct TooLarge: Error {}

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let limit: Int
        let exceeded: NIOLockedValueBox<Bool>
        var total = 0

        mutating func next() async throws -> ByteBuffer? {
            guard let chunk = try await base.next() else { return nil }
            total += chunk.readableBytes
            if total > limit {
                exceeded.withLockedValue { $0 = true }
                throw TooLarge()
            }
            return chunk
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), limit: limit, exceeded: exceeded)
    }
}
