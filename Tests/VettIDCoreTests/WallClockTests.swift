// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
import VettIDCore
import VettIDTestSupport

@Suite("Wall clock")
struct WallClockTests {
    @Test("Unix seconds round down, before and after 1970")
    func unixSeconds() {
        #expect(UnixSeconds.from(Date(timeIntervalSince1970: 1_800_000_000.999)) == 1_800_000_000)
        #expect(UnixSeconds.from(Date(timeIntervalSince1970: -0.5)) == -1)
        #expect(UnixSeconds.date(1_800_000_000) == Date(timeIntervalSince1970: 1_800_000_000))
    }

    @Test("the system clock reads the system's time")
    func system() {
        let before = Date()
        let read = SystemWallClock().now()
        #expect(read >= before && read.timeIntervalSince(before) < 60)
    }

    @Test("advancing the manual clock moves its wall view and wakes the sleeper whose deadline passed")
    func manual() async throws {
        let clock = ManualClock(start: Date(timeIntervalSince1970: 1_000))
        let wall: any WallClock = clock.wall
        #expect(wall.unixSeconds() == 1_000)
        let sleeper = Task { try await clock.sleep(until: clock.now.advanced(by: .seconds(90))) }
        await clock.waitForDeadlines([.seconds(90)])
        clock.advance(89.5)
        #expect(clock.deadlines == [.seconds(90)], "not due yet")
        #expect(wall.now() == Date(timeIntervalSince1970: 1_089.5))
        clock.advance(by: .milliseconds(500))
        try await sleeper.value
        #expect(clock.deadlines == [])
        #expect(wall.unixSeconds() == 1_090)
    }
}
