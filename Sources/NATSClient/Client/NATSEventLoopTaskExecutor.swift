// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The connection's event loop as a Swift task executor, for request loops that should not hop threads.

import NIOCore

/// Runs tasks' jobs on one SwiftNIO event loop: the loop a ``NATSClient``'s connection lives on.
///
/// A task that prefers this executor (`withTaskExecutorPreference`) runs its nonisolated code on the
/// connection's thread: a request is written without waking the event loop from another thread, and the
/// reply resumes the waiting task on the same thread instead of waking a thread of the global pool.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
final class NATSEventLoopTaskExecutor: TaskExecutor {
    private let eventLoop: any EventLoop

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }
}
