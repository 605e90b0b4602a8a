// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import VettIDCore
import VettIDTestSupport

/// The session tests' clock: VettIDTestSupport's `ManualClock` read as a `WallClock`, set and moved in the Unix
/// milliseconds the protocol speaks.
typealias TestClock = ManualClock.Wall

extension ManualClock.Wall {
    /// A clock that reads `milliseconds` (Unix) until a test moves it.
    init(milliseconds: UInt64) {
        self = ManualClock(start: Date(timeIntervalSince1970: Double(milliseconds) / 1000)).wall
    }

    /// The time, Unix milliseconds.
    var unixMilliseconds: UInt64 { UInt64((now().timeIntervalSince1970 * 1000).rounded()) }

    /// Moves the clock by `delta` milliseconds.
    func advance(milliseconds delta: UInt64) { advance(Double(delta) / 1000) }

    /// Sets the clock to `value` (Unix milliseconds), forwards or back.
    func set(milliseconds value: UInt64) { advance((Double(value) - Double(unixMilliseconds)) / 1000) }
}
