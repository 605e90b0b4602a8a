// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// Timestamps are stored as whole unix seconds in a portable integer column.
enum UnixTime {
    static func now() -> Int64 { Int64(Date().timeIntervalSince1970.rounded(.down)) }
    static func from(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970.rounded(.down)) }
    static func date(_ seconds: Int64) -> Date { Date(timeIntervalSince1970: TimeInterval(seconds)) }
}
