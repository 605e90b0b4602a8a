// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Polls a condition until it holds or a timeout passes: the one deadline loop of the tests.

/// Checks `condition` every `poll` until it returns `true` or `timeout` has passed.
///
/// Use it where a test waits for something it cannot await directly (a client noticing a lost connection, a
/// consumer parking, a recorded state), and assert on the result, so a timeout fails the test at the call:
///
/// ```swift
/// server.stop()
/// #expect(await eventually(timeout: .seconds(5)) { !client.isConnected })
/// ```
///
/// The condition runs on the caller's actor (`isolation`), so it may read that actor's state. When the task is
/// cancelled, polling stops and the condition is checked one last time.
///
/// - Parameters:
///   - timeout: How long to keep polling; 10 seconds unless given.
///   - poll: The pause between two checks; 20 milliseconds unless given.
///   - isolation: The actor the condition runs on; the caller's.
///   - condition: The check; an error it throws ends the wait and is rethrown.
/// - Returns: `true` as soon as `condition` returns `true`; `false` if it still returns `false` at the timeout.
public func eventually(
    timeout: Duration = .seconds(10),
    poll: Duration = .milliseconds(20),
    isolation: isolated (any Actor)? = #isolation,
    _ condition: () async throws -> Bool
) async rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        do {
            try await Task.sleep(for: poll)
        } catch {
            break  // cancelled: no more waiting, one last check below
        }
    }
    return try await condition()
}
