// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Testing
import VettIDSession

/// Buckets, the cap at the largest message, and every way unpadding refuses.
@Suite struct SessionPaddingTests {
    let padding = SessionPadding()

    @Test func bucketsAre512UpTo16KiBThen16KiBCappedAtTheLargestMessage() {
        #expect(padding.maxInnerLength == 61440)
        #expect(padding.maxPaddedLength == 61952)
        let cases: [(inner: Int, padded: Int)] = [
            (0, 512), (1, 512), (511, 512), (512, 1024), (1023, 1024), (16383, 16384), (16384, 32768),
            (32767, 32768), (32768, 49152), (49151, 49152), (49152, 61952), (61440, 61952),
        ]
        for (inner, padded) in cases {
            #expect(padding.paddedLength(forInnerLength: inner) == padded, "inner \(inner)")
        }
        // The largest envelope fits the worker's 64 KiB payload.
        #expect(padding.maxPaddedLength + SessionEnvelope.minimumLength <= 65536)
    }

    @Test func padThenUnpadIsTheIdentity() throws {
        for length in [0, 1, 2, 100, 511, 512, 513, 16383, 16384, 40000, 61440] {
            let inner = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            let padded = try padding.pad(inner)
            #expect(padded.count == padding.paddedLength(forInnerLength: length))
            #expect(padded[length] == 0x80)
            #expect(padded[(length + 1)...].allSatisfy { $0 == 0 })
            #expect(try padding.unpad(padded) == inner)
        }
        // Trailing zeros of the inner message survive: the 0x80 marks its end.
        #expect(try padding.unpad(padding.pad([1, 0, 0])) == [1, 0, 0])
    }

    @Test func tooLargeToPad() {
        #expect(sessionErrorCode { _ = try padding.pad([UInt8](repeating: 1, count: 61441)) } == .messageTooLarge)
        let small = SessionPadding(maxInnerLength: 100)
        #expect(small.maxPaddedLength == 512)
        #expect(sessionErrorCode { _ = try small.pad([UInt8](repeating: 1, count: 101)) } == .messageTooLarge)
    }

    @Test func unpaddingRefusals() throws {
        let badPadding: [[UInt8]] = [
            [],
            [0x80],
            [UInt8](repeating: 0, count: 512),
            [1] + [UInt8](repeating: 0, count: 511),
            [0x80] + [UInt8](repeating: 0, count: 510) + [0x01],
            [UInt8](repeating: 0x80, count: 513),
        ]
        for padded in badPadding {
            #expect(sessionErrorCode { _ = try padding.unpad(padded) } == .badPadding, "\(padded.count) bytes")
        }
        // Longer than this side accepts, though well padded.
        #expect(
            sessionErrorCode { _ = try padding.unpad([0x80] + [UInt8](repeating: 0, count: 65535)) } == .messageTooLarge
        )
        let small = SessionPadding(maxInnerLength: 100)
        let inner = [UInt8](repeating: 1, count: 200)
        #expect(sessionErrorCode { _ = try small.unpad(padding.pad(inner)) } == .messageTooLarge)
    }
}
