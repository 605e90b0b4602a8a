// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The wait of one request for its reply: the reply (or the failure) is handed over under a lock, from whichever
// thread has it, to the task that waits for it or comes for it later. An EventLoopPromise would do the same, but
// its future's `get()` from a task off the event loop registers its callback through `eventLoop.execute`: one more
// wake-up of the loop's thread per request, on top of the write and the reply (docs/benchmarks.md, JetStream).

import NIOConcurrencyHelpers

/// One request's reply, for one waiting task. The first completion counts; later ones are ignored.
final class NATSReplyWaiter: Sendable {
    private enum State {
        case pending
        case waiting(UnsafeContinuation<NATSMessage, any Error>)
        case done(Result<NATSMessage, any Error>)
    }

    private let state = NIOLockedValueBox(State.pending)

    /// Hands `message` to the waiting task.
    func succeed(_ message: NATSMessage) {
        complete(.success(message))
    }

    /// Hands `error` to the waiting task.
    func fail(_ error: any Error) {
        complete(.failure(error))
    }

    private func complete(_ result: Result<NATSMessage, any Error>) {
        let waiting: UnsafeContinuation<NATSMessage, any Error>? = state.withLockedValue { state in
            switch state {
            case .pending:
                state = .done(result)
                return nil
            case .waiting(let continuation):
                state = .done(result)
                return continuation
            case .done:
                return nil
            }
        }
        waiting?.resume(with: result)
    }

    /// The reply, or the failure, once there is one. Called once.
    nonisolated(nonsending) func value() async throws -> NATSMessage {
        try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<NATSMessage, any Error>) in
            let ready: Result<NATSMessage, any Error>? = state.withLockedValue { state in
                switch state {
                case .pending:
                    state = .waiting(continuation)
                    return nil
                case .done(let result):
                    return result
                case .waiting:
                    preconditionFailure("one task waits for a reply")
                }
            }
            if let ready { continuation.resume(with: ready) }
        }
    }
}
