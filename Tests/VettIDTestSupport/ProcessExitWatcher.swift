// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The exit of a child process, observed through `terminationHandler` instead of `Process.waitUntilExit()`.

public import Foundation
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
public final class ProcessExitWatcher: Sendable {
    private let exited = DispatchSemaphore(value: 0)
    private let status = NIOLockedValueBox<Int32?>(nil)

    /// Watches `process`; call before `process.run()` (it sets the termination handler).
    public init(_ process: Process) {
        process.terminationHandler = { [exited, status] process in
            status.withLockedValue { $0 = process.terminationStatus }
            exited.signal()
        }
    }

    /// The exit status, once the process has exited.
    public var exitStatus: Int32? { status.withLockedValue { $0 } }

    /// Blocks the calling thread until the process exited or `timeout` passed; true if it exited.
    @discardableResult
    public func wait(timeout: Duration) -> Bool {
        if exitStatus != nil { return true }
        let nanoseconds = timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
        guard exited.wait(timeout: .now() + .nanoseconds(Int(nanoseconds))) == .success else { return false }
        exited.signal()  // for the next waiter
        return true
    }

    /// Stops the process: SIGTERM, up to `grace` for it to exit, then SIGKILL. True once it has exited.
    @discardableResult
    public func terminate(_ process: Process, grace: Duration = .seconds(10)) -> Bool {
        guard exitStatus == nil else { return true }
        if process.isRunning { process.terminate() }
        if wait(timeout: grace) { return true }
        kill(process.processIdentifier, SIGKILL)
        return wait(timeout: .seconds(10))
    }
}
