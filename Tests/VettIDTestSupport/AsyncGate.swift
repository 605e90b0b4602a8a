// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// A gate a test opens once: tasks that wait before the opening are held, every wait after it passes at once.

/// Holds the tasks that ``wait()`` until ``open()``; after that, every wait returns at once.
///
/// For a test that keeps work "busy" until it decides (a slow handler, a write held in flight) and then lets
/// all of it go, without sleeping for a guessed time.
public actor AsyncGate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    public init() {}

    /// Returns once the gate is open.
    public func wait() async {
        if isOpen { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    /// Opens the gate: the waiting tasks go on, and later waits pass.
    public func open() {
        isOpen = true
        for waiter in waiters { waiter.resume() }
        waiters = []
    }
}
