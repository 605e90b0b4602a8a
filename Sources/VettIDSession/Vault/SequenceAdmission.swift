// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

// Which sequence numbers of a session the vault admits: a pure state machine, time as input.

/// The sequence admission of one session (docs/protocol.md §7.3).
///
/// It keeps the highest admitted sequence number `h` and the set of sequence numbers already received (admitted,
/// waiting, or refused as out of order), a bitset up to `max_messages`. For a sequence number `n` whose envelope
/// opened:
///
/// - `n` already received: refuse `replayed` (answered unsealed: its response key and nonce may be in use);
/// - `n <= h`, not received: record it, refuse `out_of_order` (answered sealed: this number was never sealed before;
///   the app sends the request again with a fresh number);
/// - `n == h + 1`: admit (`h = n`);
/// - `n > h + 1`: wait until the gap below it is admitted or ``reorderWait`` has passed (two worker instances may
///   read pipelined requests in another order), then admit (`h = n`: the numbers of the gap still missing are then
///   refused `out_of_order` when they arrive).
///
/// Each call returns a ``Decision``; the caller (``SealedSessionTable``) carries out a wait and calls ``resume(_:now:)``
/// with the same number when the gap may have closed or the deadline passed. No call sleeps.
public struct SequenceAdmission: Sendable {
    /// What to do with a request.
    public enum Decision: Sendable, Hashable {
        /// Run it.
        case admit
        /// Refuse it with this code (`replayed`, `out_of_order`, `session_expired` beyond the limit,
        /// `malformed_envelope` for 0).
        case refuse(SessionError.Code)
        /// Ask again (``SequenceAdmission/resume(_:now:)``) when another number was admitted or at this instant.
        case wait(until: ContinuousClock.Instant)
    }

    /// The last sequence number a session admits.
    public let maxMessages: UInt32
    /// How long a number above a gap waits for the gap.
    public let reorderWait: Duration
    /// `h`: the highest admitted sequence number (0 before the first).
    public private(set) var highest: UInt64 = 0
    private var received: [UInt64]
    private var waiting: [UInt64: ContinuousClock.Instant] = [:]

    /// The admission of a session of `maxMessages` requests.
    public init(maxMessages: UInt32, reorderWait: Duration = .milliseconds(50)) {
        self.maxMessages = maxMessages
        self.reorderWait = reorderWait
        self.received = [UInt64](repeating: 0, count: (Int(maxMessages) + 1 + 63) / 64)
    }

    /// The decision for a sequence number seen for the first time at `now`.
    public mutating func receive(_ sequence: UInt64, now: ContinuousClock.Instant) -> Decision {
        guard sequence >= 1 else { return .refuse(.malformedEnvelope) }
        guard sequence <= UInt64(maxMessages) else { return .refuse(.sessionExpired) }
        guard !isReceived(sequence) else { return .refuse(.replayed) }
        markReceived(sequence)
        if sequence <= highest { return .refuse(.outOfOrder) }
        if sequence == highest + 1 || reorderWait <= .zero {
            highest = sequence
            return .admit
        }
        let deadline = now.advanced(by: reorderWait)
        waiting[sequence] = deadline
        return .wait(until: deadline)
    }

    /// The decision for a sequence number that was told to wait, asked again at `now`.
    public mutating func resume(_ sequence: UInt64, now: ContinuousClock.Instant) -> Decision {
        guard let deadline = waiting[sequence] else { return .refuse(.replayed) }
        if sequence <= highest {
            waiting[sequence] = nil
            return .refuse(.outOfOrder)
        }
        if sequence == highest + 1 || now >= deadline {
            waiting[sequence] = nil
            highest = sequence
            return .admit
        }
        return .wait(until: deadline)
    }

    /// Whether `sequence` was received (admitted, waiting or refused as out of order).
    public func isReceived(_ sequence: UInt64) -> Bool {
        guard sequence <= UInt64(maxMessages) else { return false }
        return received[Int(sequence / 64)] & (1 << (sequence % 64)) != 0
    }

    /// How many numbers are waiting for a gap.
    public var waitingCount: Int { waiting.count }

    private mutating func markReceived(_ sequence: UInt64) {
        received[Int(sequence / 64)] |= 1 << (sequence % 64)
    }
}
