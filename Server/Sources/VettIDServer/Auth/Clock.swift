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
