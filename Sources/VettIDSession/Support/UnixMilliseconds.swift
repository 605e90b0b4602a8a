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
    /// The current time as whole Unix milliseconds, rounded down (0 before 1970).
    var unixMilliseconds: UInt64 {
        let milliseconds = (now().timeIntervalSince1970 * 1000).rounded(.down)
        return milliseconds <= 0 ? 0 : UInt64(milliseconds)
    }
}

extension Duration {
    /// Whole milliseconds, rounded down, at least 0.
    var wholeMilliseconds: UInt64 {
        let (seconds, attoseconds) = components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return milliseconds <= 0 ? 0 : UInt64(milliseconds)
    }
}
