// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// A value behind a lock, for the package's modules that do not link SwiftNIO (whose `NIOLockedValueBox` the NATS
/// modules use) and cannot use `Synchronization.Mutex` (iOS 18, macOS 15).
///
/// The one audited `@unchecked Sendable` of those modules: the value is reachable only inside ``withLock(_:)``,
/// and it is `Sendable` only when the value is.
package final class LockedValue<Value> {
    private let lock = NSLock()
    private var value: Value

    /// Wraps `value`.
    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value while holding the lock. `body` must not suspend or call back into this box.
    package func withLock<T, E: Error>(_ body: (inout Value) throws(E) -> T) throws(E) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

extension LockedValue: @unchecked Sendable where Value: Sendable {}
