// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Blocking work of a test (a child process's pipes and exit, a raw socket) on a thread of its own.

import Foundation

/// Runs `body` on a new thread and awaits its result, leaving the cooperative pool free.
///
/// A test that blocks a cooperative thread (reading a child's output to its end, waiting for its exit) takes one of
/// the pool's two threads on a 2-core machine for as long as it blocks. When the child talks to a server in this
/// process (a `vettid` command against a live in-process backend), that server needs the pool to answer, so two such
/// waits at once stop every test until something times out. On its own thread the wait costs nothing.
public func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}
