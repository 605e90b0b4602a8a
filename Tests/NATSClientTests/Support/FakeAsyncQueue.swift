// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The queue a fake server's connections wait on, with a timeout, so a test that waits for something that never
// comes fails instead of hanging.

import NIOConcurrencyHelpers

/// An unbounded queue a test awaits with a timeout; items pushed from an event loop. One waiter at a time.
final class FakeAsyncQueue<Element: Sendable>: Sendable {
    private struct State {
        var items: [Element] = []
        var waiter: (id: UInt64, continuation: CheckedContinuation<Element, any Error>)?
        var nextID: UInt64 = 0
        /// A wait whose timer fired before it registered its continuation.
        var expiredID: UInt64?
        var failure: (any Error)?
    }

    private let state = NIOLockedValueBox(State())

    func push(_ element: Element) {
        let waiter: CheckedContinuation<Element, any Error>? = state.withLockedValue { state in
            guard let waiter = state.waiter else {
                state.items.append(element)
                return nil
            }
            state.waiter = nil
            return waiter.continuation
        }
        waiter?.resume(returning: element)
    }

    func fail(_ error: any Error) {
        let waiter = state.withLockedValue { state in
            state.failure = error
            defer { state.waiter = nil }
            return state.waiter?.continuation
        }
        waiter?.resume(throwing: error)
    }

    /// The next element; throws ``FakeTimeout`` after `timeout`, or the failure the queue saw.
    func next(timeout: Duration, what: String) async throws -> Element {
        let id = state.withLockedValue { state in
            state.nextID += 1
            return state.nextID
        }
        let expired = FakeTimeout(description: "no \(what) within \(timeout)")
        let timer = Task {
            try await Task.sleep(for: timeout)
            let waiter: CheckedContinuation<Element, any Error>? = state.withLockedValue { state in
                guard let waiter = state.waiter, waiter.id == id else {
                    state.expiredID = id
                    return nil
                }
                state.waiter = nil
                return waiter.continuation
            }
            waiter?.resume(throwing: expired)
        }
        defer { timer.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            let immediate: Result<Element, any Error>? = state.withLockedValue { state in
                if !state.items.isEmpty { return .success(state.items.removeFirst()) }
                if let failure = state.failure { return .failure(failure) }
                if state.expiredID == id { return .failure(expired) }
                precondition(state.waiter == nil, "one waiter at a time")
                state.waiter = (id, continuation)
                return nil
            }
            if let immediate { continuation.resume(with: immediate) }
        }
    }
}

/// A fake-server wait ran out.
struct FakeTimeout: Error, CustomStringConvertible {
    let description: String
}
