// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import VettIDCore
import VettIDCrypto

/// A wall clock the test sets and moves, in Unix milliseconds.
final class TestClock: WallClock {
    private let milliseconds: LockedValue<UInt64>

    init(milliseconds: UInt64) {
        self.milliseconds = LockedValue(milliseconds)
    }

    func now() -> Date { Date(timeIntervalSince1970: Double(milliseconds.withLock { $0 }) / 1000) }

    /// The time, Unix milliseconds.
    var unixMilliseconds: UInt64 { milliseconds.withLock { $0 } }

    func advance(milliseconds delta: UInt64) { milliseconds.withLock { $0 += delta } }

    func set(milliseconds value: UInt64) { milliseconds.withLock { $0 = value } }
}
