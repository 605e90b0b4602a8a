// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Where the SDK and the server read the wall-clock time.
///
/// Token lifetimes, DPoP `iat`, refresh schedules and stored timestamps all read it through this protocol, so a
/// test moves time with one manual clock (`ManualWallClock` in VettIDTestSupport) instead of sleeping.
public protocol WallClock: Sendable {
    /// The current time.
    func now() -> Date
}

extension WallClock {
    /// The current time as whole Unix seconds, rounded down: how tokens (`iat`, `exp`) and the store keep time.
    public func unixSeconds() -> Int64 { UnixSeconds.from(now()) }

    /// The current time as whole milliseconds since 1970, rounded down: the time of vault messages and of what the
    /// vault stores for a member.
    public func unixMilliseconds() -> Int64 { Int64((now().timeIntervalSince1970 * 1000).rounded(.down)) }
}

/// The system's clock.
public struct SystemWallClock: WallClock {
    /// Creates the system clock.
    public init() {}

    /// `Date()`.
    public func now() -> Date { Date() }
}

extension WallClock where Self == SystemWallClock {
    /// The system's clock.
    public static var system: SystemWallClock { SystemWallClock() }
}

/// Conversions between `Date` and whole Unix seconds, the integer form tokens and stored rows use.
public enum UnixSeconds {
    /// Whole seconds since 1970, rounded down.
    public static func from(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970.rounded(.down)) }

    /// The date of whole Unix seconds.
    public static func date(_ seconds: Int64) -> Date { Date(timeIntervalSince1970: TimeInterval(seconds)) }
}
