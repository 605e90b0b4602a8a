// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
import NIOConcurrencyHelpers
public import VettIDCore

/// Real time plus an offset a test moves forward: a server under test sees time pass (DPoP proofs carry real
/// `iat`s, live requests take real time), and the test can still skip ahead (rate limits, expiry, refresh windows).
/// For time that moves only when told, use ``ManualClock``.
public final class OffsetClock: WallClock, Sendable {
    private let offset = NIOLockedValueBox<TimeInterval>(0)

    /// A clock at real time.
    public init() {}

    /// The system's time plus the offset.
    public func now() -> Date { Date().addingTimeInterval(offset.withLockedValue { $0 }) }

    /// Moves the clock `seconds` further ahead of real time.
    public func advance(_ seconds: TimeInterval) { offset.withLockedValue { $0 += seconds } }

    /// Moves the clock `step` further ahead of real time.
    public func advance(by step: Duration) { advance(step.timeInterval) }

    /// Sets the clock to `offset` ahead of real time.
    public func advance(to offset: Duration) { self.offset.withLockedValue { $0 = offset.timeInterval } }
}
