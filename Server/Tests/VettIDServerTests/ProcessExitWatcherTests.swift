// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
import VettIDCore

@testable import VettIDServer

/// Stopping child processes from a task without blocking its thread (`LocalNATSServer.restarted()` does).
@Suite struct ProcessExitWatcherTests {
    /// A started `python3 -c script` and its watcher: a child without children of its own (Foundation notices an
    /// exit only once every process holding the child's descriptors is gone) that sets its own SIGTERM handling.
    /// A child spawned from a Swift concurrency thread inherits that thread's signal mask, in which SIGTERM is
    /// blocked (`SigBlk` in /proc): `sleep` would never see the SIGTERM. nats-server (Go) unblocks the signals it
    /// handles itself.
    private func started(_ script: String) throws -> (Process, ProcessExitWatcher) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", "import signal, time\n" + script]
        let exit = ProcessExitWatcher(process)
        try process.run()
        return (process, exit)
    }

    @Test func aProcessThatExitsOnSIGTERMIsTerminatedWithinTheGrace() async throws {
        let (process, exit) = try started(
            "signal.signal(signal.SIGTERM, signal.SIG_DFL)\n"
                + "signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM])\ntime.sleep(30)")
        #expect(await !exit.exited(within: .milliseconds(50)), "still running")
        let started = ContinuousClock.now
        #expect(await exit.terminated(process, grace: .seconds(10)))
        #expect(ContinuousClock.now - started < .seconds(10), "the SIGTERM ended it, not the SIGKILL after the grace")
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGTERM)
    }

    @Test func aProcessThatIgnoresSIGTERMIsKilledAfterTheGrace() async throws {
        let (process, exit) = try started(
            "signal.signal(signal.SIGTERM, signal.SIG_IGN)\ntime.sleep(30)")
        try await Task.sleep(for: .milliseconds(300))  // python is up and ignores SIGTERM before the signal
        let started = ContinuousClock.now
        #expect(await exit.terminated(process, grace: .milliseconds(300)))
        #expect(ContinuousClock.now - started >= .milliseconds(300), "SIGKILL only after the grace")
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)
    }

    @Test func aCancelledWaiterStillWaitsForTheExit() async throws {
        let (process, exit) = try started("time.sleep(0.3)")
        let waiter = Task { await exit.exited(within: .seconds(10)) }
        waiter.cancel()
        #expect(await waiter.value, "the exit is waited for on the thread once the task is cancelled")
        #expect(!process.isRunning)
    }
}
