// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import NIOConcurrencyHelpers

/// An async counting semaphore: at most `limit` bodies run at once; the rest wait in arrival order.
///
/// Bounds the memory of Argon2id hashing: peak ≈ `limit × memoryKiB`, whatever the load.
final class ConcurrencyLimiter: Sendable {
    private struct State {
        var available: Int
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state: NIOLockedValueBox<State>

    init(limit: Int) {
        precondition(limit > 0, "limit must be positive")
        state = NIOLockedValueBox(State(available: limit))
    }

    func run<Result: Sendable>(_ body: () async throws -> Result) async rethrows -> Result {
        await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = state.withLockedValue { state -> Bool in
                if state.available > 0 {
                    state.available -= 1
                    return true
                }
                state.waiters.append(continuation)
                return false
            }
            if granted { continuation.resume() }
        }
    }

    private func release() {
        let next = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
            if state.waiters.isEmpty {
                state.available += 1
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }
}
