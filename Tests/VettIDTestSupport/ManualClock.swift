// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
import NIOConcurrencyHelpers
public import VettIDCore

/// The one clock tests move by hand: a Swift `Clock` whose sleepers wait until ``advance(by:)`` passes their
/// deadline (cancellation ends a sleep with `CancellationError`), and, through ``wall``, the `WallClock` the SDK
/// and the server read dates from. Advancing moves both, so a test of a refresh schedule, a token lifetime or a
/// rate limit never sleeps.
public final class ManualClock: Clock, Sendable {
    /// A point in the clock's time: an offset from its start.
    public struct Instant: InstantProtocol {
        /// Time since the clock's start.
        public var offset: Duration
        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        /// The time from this instant to `other`.
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        /// Whether `lhs` is earlier.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    /// The dates the clock's ``wall`` view reads: ``start`` plus the time advanced.
    public struct Wall: WallClock {
        let clock: ManualClock
        /// ``ManualClock/start`` plus the time advanced so far.
        public func now() -> Date { clock.start.addingTimeInterval(clock.now.offset.timeInterval) }
        /// Advances the clock this view reads (see ``ManualClock/advance(_:)``).
        public func advance(_ seconds: TimeInterval) { clock.advance(seconds) }
    }

    /// The date of the clock's start (``Instant`` offset zero).
    public let start: Date

    /// Creates a clock at offset zero whose wall view starts at `start` (2027-01-15 08:00 UTC unless given).
    public init(start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { self.start = start }

    /// The clock as a `WallClock`: dates that move when the clock is advanced.
    public var wall: Wall { Wall(clock: self) }

    private struct Sleeper {
        var id: UInt64
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct Watcher {
        var predicate: @Sendable ([Duration]) -> Bool
        var continuation: CheckedContinuation<Void, Never>
    }

    /// Time, the pending sleeps and the waits for a set of deadlines; changed only under the lock, continuations
    /// resumed after it is released.
    private struct State {
        var current = Instant(offset: .zero)
        var sleepers: [Sleeper] = []
        var watchers: [Watcher] = []
        var nextID: UInt64 = 0

        public var deadlines: [Duration] { sleepers.map(\.deadline.offset).sorted() }

        mutating func takeReadyWatchers() -> [CheckedContinuation<Void, Never>] {
            let offsets = deadlines
            var ready: [CheckedContinuation<Void, Never>] = []
            watchers.removeAll { watcher in
                guard watcher.predicate(offsets) else { return false }
                ready.append(watcher.continuation)
                return true
            }
            return ready
        }
    }

    private let state = NIOLockedValueBox(State())

    /// The current instant.
    public var now: Instant { state.withLockedValue { $0.current } }
    /// No resolution limit.
    public var minimumResolution: Duration { .zero }

    /// The deadlines of the pending sleeps, as offsets from the start, sorted.
    public var deadlines: [Duration] { state.withLockedValue { $0.deadlines } }

    /// Waits until the clock is advanced to `deadline` or past it.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLockedValue { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Outcome { case due, cancelled, waiting([CheckedContinuation<Void, Never>]) }
                let outcome = state.withLockedValue { state -> Outcome in
                    if deadline <= state.current { return .due }
                    if Task.isCancelled { return .cancelled }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return .waiting(state.takeReadyWatchers())
                }
                switch outcome {
                case .due: continuation.resume()
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .waiting(let ready): for watcher in ready { watcher.resume() }
                }
            }
        } onCancel: {
            let (removed, ready) = state.withLockedValue { state in
                let removed = state.sleepers.firstIndex { $0.id == id }.map { state.sleepers.remove(at: $0) }
                return (removed, state.takeReadyWatchers())
            }
            removed?.continuation.resume(throwing: CancellationError())
            for watcher in ready { watcher.resume() }
        }
    }

    /// Moves time forward and wakes the sleepers whose deadline passed.
    public func advance(by duration: Duration) {
        let (due, ready) = state.withLockedValue { state in
            state.current = state.current.advanced(by: duration)
            let now = state.current
            let due = state.sleepers.filter { $0.deadline <= now }
            state.sleepers.removeAll { $0.deadline <= now }
            return (due, state.takeReadyWatchers())
        }
        for sleeper in due { sleeper.continuation.resume() }
        for watcher in ready { watcher.resume() }
    }

    /// Waits until the pending deadlines satisfy `predicate` (checked at every change).
    public func waitUntil(_ predicate: @escaping @Sendable ([Duration]) -> Bool) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let holds = state.withLockedValue { state in
                guard predicate(state.deadlines) else {
                    state.watchers.append(Watcher(predicate: predicate, continuation: continuation))
                    return false
                }
                return true
            }
            if holds { continuation.resume() }
        }
    }

    /// Waits until exactly `deadlines` are pending.
    public func waitForDeadlines(_ deadlines: [Duration]) async {
        let expected = deadlines.sorted()
        await waitUntil { $0 == expected }
    }
}

extension ManualClock {
    /// Moves time forward by `seconds`.
    public func advance(_ seconds: TimeInterval) { advance(by: .milliseconds(Int64((seconds * 1000).rounded()))) }
}

extension Duration {
    /// The duration in seconds, as a `TimeInterval`.
    var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}

extension WallClock where Self == ManualClock.Wall {
    /// A wall clock that stands at `date` (a ``ManualClock`` nobody advances).
    public static func fixed(_ date: Date) -> ManualClock.Wall { ManualClock(start: date).wall }
}
