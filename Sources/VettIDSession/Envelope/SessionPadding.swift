// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

// Padding of the inner message to buckets, so that an envelope's length tells little about what it carries.

/// Pads an inner message to a bucket before sealing and removes the padding after opening.
///
/// `padded = inner || 0x80 || 0x00…` up to the next multiple of 512 bytes while that is at most 16 KiB, and of
/// 16 KiB above, but never beyond ``maxPaddedLength`` (the 512-byte multiple that holds the largest inner message),
/// so that the largest message still fits the NATS payload. With the default 60 KiB maximum the buckets are 512,
/// 1024, …, 16384, 32768, 49152 and 61952 bytes; an envelope is 44 bytes more.
///
/// Unpadding requires a whole number of 512-byte blocks, strips the trailing zeros and requires the 0x80 before
/// them (else `bad_padding`); a longer message than the configured maximum is `message_too_large`.
public struct SessionPadding: Sendable, Hashable {
    /// The small bucket step.
    public static let blockLength = 512
    /// Above this padded length the step is ``largeBlockLength``.
    public static let smallLimit = 16384
    /// The large bucket step.
    public static let largeBlockLength = 16384
    /// The default largest inner message: 60 KiB (sealed: 61952 + 44 bytes, inside the worker's 64 KiB payload).
    public static let defaultMaxInnerLength = 61440

    /// The largest inner message this side seals or accepts.
    public let maxInnerLength: Int

    /// Padding for inner messages of at most `maxInnerLength` bytes (at least 1).
    public init(maxInnerLength: Int = SessionPadding.defaultMaxInnerLength) {
        precondition(maxInnerLength >= 1, "the largest inner message is at least 1 byte")
        self.maxInnerLength = maxInnerLength
    }

    /// The largest padded length: the 512-byte multiple that holds the largest inner message and its 0x80.
    public var maxPaddedLength: Int { Self.roundUp(maxInnerLength + 1, to: Self.blockLength) }

    /// The padded length of an inner message of `innerLength` bytes (at most ``maxInnerLength``).
    public func paddedLength(forInnerLength innerLength: Int) -> Int {
        let length = innerLength + 1
        let bucket =
            length <= Self.smallLimit
            ? Self.roundUp(length, to: Self.blockLength) : Self.roundUp(length, to: Self.largeBlockLength)
        return min(bucket, maxPaddedLength)
    }

    /// `inner || 0x80 || 0x00…` to its bucket.
    /// - Throws: `message_too_large` beyond ``maxInnerLength``.
    public func pad(_ inner: [UInt8]) throws(SessionError) -> [UInt8] {
        guard inner.count <= maxInnerLength else {
            throw SessionError(
                .messageTooLarge, "an inner message of \(inner.count) bytes exceeds the \(maxInnerLength)-byte limit")
        }
        var padded = inner
        padded.reserveCapacity(paddedLength(forInnerLength: inner.count))
        padded.append(0x80)
        padded.append(contentsOf: repeatElement(0, count: paddedLength(forInnerLength: inner.count) - padded.count))
        return padded
    }

    /// The inner message of a padded one.
    /// - Throws: `bad_padding` (not whole 512-byte blocks, or no 0x80 before the trailing zeros),
    ///   `message_too_large` (longer than this side accepts).
    public func unpad(_ padded: [UInt8]) throws(SessionError) -> [UInt8] {
        guard !padded.isEmpty, padded.count % Self.blockLength == 0 else {
            throw SessionError(.badPadding, "a padded message is a whole number of 512-byte blocks")
        }
        guard padded.count <= maxPaddedLength else {
            throw SessionError(.messageTooLarge, "a padded message of \(padded.count) bytes exceeds the limit")
        }
        guard let marker = padded.lastIndex(where: { $0 != 0 }), padded[marker] == 0x80 else {
            throw SessionError(.badPadding, "the padding does not start with 0x80")
        }
        guard marker <= maxInnerLength else {
            throw SessionError(.messageTooLarge, "an inner message of \(marker) bytes exceeds the limit")
        }
        return Array(padded[..<marker])
    }

    private static func roundUp(_ value: Int, to step: Int) -> Int { (value + step - 1) / step * step }
}
