// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

// Which sequence numbers of a session the vault admits: a pure state machine, time as input.

/// The sequence admission of one session (docs/protocol.md §7.3).
///
/// It keeps the highest admitted sequence number `h`, the set of sequence numbers already received (admitted or
/// refused as out of order, a bitset up to `max_messages`) and the gaps left when a number above `h + 1` was
/// admitted, each admissible until ``reorderWait`` after that. For a sequence number `n` whose envelope opened:
///
/// - `n` already received: refuse `replayed` (answered unsealed: its response key and nonce may be in use);
/// - `n > h`: admit (`h = n`); the numbers between the old `h` and `n` become a gap;
/// - `n < h`, in a gap that is still open: admit (two worker instances may read pipelined requests in another
///   order; requests in flight together have no order, the app awaits an answer when it needs one);
/// - `n < h` otherwise: record it, refuse `out_of_order` (answered sealed: this number was never sealed before; the
///   app sends the request again with a fresh number).
///
/// No decision waits: a request is admitted or refused when it arrives.
public struct SequenceAdmission: Sendable {
    /// What to do with a request.
    public enum Decision: Sendable, Hashable {
        /// Run it.
        case admit
        /// Refuse it with this code (`replayed`, `out_of_order`, `session_expired` beyond the limit,
        /// `malformed_envelope` for 0).
        case refuse(SessionError.Code)
    }

    /// Numbers skipped by an admission above `h + 1`, admissible until `deadline`.
    private struct Gap: Sendable {
        let lower: UInt64
        let upper: UInt64
        let deadline: ContinuousClock.Instant
    }

    /// The last sequence number a session admits.
    public let maxMessages: UInt32
    /// How long after a gap opened its numbers are still admitted.
    public let reorderWait: Duration
    /// `h`: the highest admitted sequence number (0 before the first).
    public private(set) var highest: UInt64 = 0
    private var received: [UInt64]
    /// At most `maxMessages / 2` (each gap is at least one number, between two admitted ones).
    private var gaps: [Gap] = []

    /// The admission of a session of `maxMessages` requests.
    public init(maxMessages: UInt32, reorderWait: Duration = .milliseconds(50)) {
        self.maxMessages = maxMessages
        self.reorderWait = reorderWait
        self.received = [UInt64](repeating: 0, count: (Int(maxMessages) + 1 + 63) / 64)
    }

    /// The decision for a sequence number that arrived at `now`.
    public mutating func receive(_ sequence: UInt64, now: ContinuousClock.Instant) -> Decision {
        guard sequence >= 1 else { return .refuse(.malformedEnvelope) }
        guard sequence <= UInt64(maxMessages) else { return .refuse(.sessionExpired) }
        guard !isReceived(sequence) else { return .refuse(.replayed) }
        markReceived(sequence)
        if !gaps.isEmpty { gaps.removeAll { $0.deadline <= now } }
        if sequence > highest {
            if sequence > highest + 1, reorderWait > .zero {
                gaps.append(Gap(lower: highest + 1, upper: sequence - 1, deadline: now.advanced(by: reorderWait)))
            }
            highest = sequence
            return .admit
        }
        return gaps.contains { $0.lower <= sequence && sequence <= $0.upper } ? .admit : .refuse(.outOfOrder)
    }

    /// Whether `sequence` was received (admitted, or refused as out of order).
    public func isReceived(_ sequence: UInt64) -> Bool {
        guard sequence <= UInt64(maxMessages) else { return false }
        return received[Int(sequence / 64)] & (1 << (sequence % 64)) != 0
    }

    /// How many gaps are still open (their numbers admissible), as of the last decision.
    public var openGapCount: Int { gaps.count }

    private mutating func markReceived(_ sequence: UInt64) {
        received[Int(sequence / 64)] |= 1 << (sequence % 64)
    }
}
