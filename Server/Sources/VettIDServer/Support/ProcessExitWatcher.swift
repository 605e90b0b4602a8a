// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The exit of a child process, observed through `terminationHandler` instead of `Process.waitUntilExit()`.

package import Foundation
import NIOConcurrencyHelpers

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The exit of a child process, seen through `terminationHandler`.
///
/// `Process.waitUntilExit()` spins a run loop on the calling thread until Foundation notices the exit. Called from
/// a Swift concurrency thread on Linux it can go on spinning after the child is gone, and on a 2-core machine (two
/// cooperative threads) two such calls stop every test. The watcher is created before `run()`, so a child that
/// exits at once is not missed; its waits are bounded.
package final class ProcessExitWatcher: Sendable {
    private let exited = DispatchSemaphore(value: 0)
    private let status = NIOLockedValueBox<Int32?>(nil)

    /// Watches `process`; call before `process.run()` (it sets the termination handler).
    package init(_ process: Process) {
        process.terminationHandler = { [exited, status] process in
            status.withLockedValue { $0 = process.terminationStatus }
            exited.signal()
        }
    }

    /// The exit status, once the process has exited.
    package var exitStatus: Int32? { status.withLockedValue { $0 } }

    /// Blocks the calling thread until the process exited or `timeout` passed; true if it exited.
    @discardableResult
    package func wait(timeout: Duration) -> Bool {
        if exitStatus != nil { return true }
        let nanoseconds = timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
        guard exited.wait(timeout: .now() + .nanoseconds(Int(nanoseconds))) == .success else { return false }
        exited.signal()  // for the next waiter
        return true
    }

    /// Waits without blocking the calling thread until the process exited or `timeout` passed; true if it exited.
    /// A cancelled task waits out the rest on its thread (a stop must not be skipped).
    package func exited(within timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while exitStatus == nil {
            let now = ContinuousClock.now
            guard now < deadline else { return false }
            do {
                try await Task.sleep(for: .milliseconds(5))
            } catch {
                return wait(timeout: deadline - now)
            }
        }
        return true
    }

    /// ``terminate(_:grace:)`` from a task, without blocking its thread while the process shuts down.
    @discardableResult
    package func terminated(_ process: Process, grace: Duration = .seconds(10)) async -> Bool {
        guard exitStatus == nil else { return true }
        if process.isRunning { process.terminate() }
        if await exited(within: grace) { return true }
        kill(process.processIdentifier, SIGKILL)
        return await exited(within: .seconds(10))
    }

    /// Stops the process: SIGTERM, up to `grace` for it to exit, then SIGKILL. True once it has exited.
    @discardableResult
    package func terminate(_ process: Process, grace: Duration = .seconds(10)) -> Bool {
        guard exitStatus == nil else { return true }
        if process.isRunning { process.terminate() }
        if wait(timeout: grace) { return true }
        kill(process.processIdentifier, SIGKILL)
        return wait(timeout: .seconds(10))
    }
}
