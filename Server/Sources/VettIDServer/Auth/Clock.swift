// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// Where the server reads the time; tests inject a fixed or stepped one.
public protocol WallClock: Sendable {
    /// The current time.
    func now() -> Date
}

/// The system clock.
public struct SystemWallClock: WallClock {
    public init() {}
    public func now() -> Date { Date() }
}
