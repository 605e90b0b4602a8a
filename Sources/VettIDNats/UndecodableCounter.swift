// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import NIOConcurrencyHelpers

/// A thread-safe counter of skipped messages.
final class UndecodableCounter: Sendable {
    private let count = NIOLockedValueBox(0)

    var value: Int { count.withLockedValue { $0 } }

    func increment() { count.withLockedValue { $0 += 1 } }
}
