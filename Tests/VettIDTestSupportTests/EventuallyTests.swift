// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import NIOConcurrencyHelpers
import Testing
import VettIDTestSupport

@Suite struct EventuallyTests {
    struct Stop: Error {}

    @Test("true as soon as the condition holds")
    func holdsAfterAFewPolls() async {
        let calls = NIOLockedValueBox(0)
        #expect(
            await eventually(poll: .milliseconds(1)) {
                calls.withLockedValue { count in
                    count += 1
                    return count >= 3
                }
            })
        #expect(calls.withLockedValue { $0 } == 3)
    }

    @Test("false when the condition still fails at the timeout")
    func timesOut() async {
        let start = ContinuousClock.now
        #expect(await eventually(timeout: .milliseconds(100), poll: .milliseconds(10)) { false } == false)
        #expect(ContinuousClock.now - start >= .milliseconds(100))
    }

    @Test("an error of the condition ends the wait and is rethrown")
    func rethrowsTheConditionsError() async {
        await #expect(throws: Stop.self) { try await eventually { throw Stop() } }
    }

    @Test("the condition runs on the caller's actor")
    @MainActor
    func runsOnTheCallersActor() async {
        var polls = 0
        #expect(
            await eventually(poll: .milliseconds(1)) {
                MainActor.assertIsolated()
                polls += 1
                return polls == 2
            })
    }
}
