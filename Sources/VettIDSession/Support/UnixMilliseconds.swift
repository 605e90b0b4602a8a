// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import VettIDCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The protocol's time unit: whole Unix milliseconds (`timestamp_ms`, `expires_at_ms`, `exp`).

extension WallClock {
    /// The current time as whole Unix milliseconds, rounded down, unsigned as the wire has it (0 before 1970).
    var sessionMilliseconds: UInt64 { UInt64(max(0, unixMilliseconds())) }
}

extension Duration {
    /// Whole milliseconds, rounded down, at least 0.
    var wholeMilliseconds: UInt64 {
        let (seconds, attoseconds) = components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return milliseconds <= 0 ? 0 : UInt64(milliseconds)
    }
}
