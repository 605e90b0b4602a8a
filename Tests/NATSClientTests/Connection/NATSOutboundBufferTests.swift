// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import NIOConcurrencyHelpers
import NIOCore
import Testing

@testable import NATSClient

@Suite struct NATSOutboundBufferTests {
    @Test func publishFrameIsRightForEveryLengthOfTheSizeField() {
        for size in [0, 1, 9, 10, 99, 100, 999, 1000, 65_535, 100_000] {
            for replyTo in [nil, "_INBOX.abc.1"] as [String?] {
                var fast = ByteBuffer()
                fast.writeNATSPublish(
                    subject: "orders.eu", replyTo: replyTo, payload: ByteBuffer(repeating: 0x61, count: size))
                let expected =
                    "PUB orders.eu \(replyTo.map { $0 + " " } ?? "")\(size)\r\n"
                    + String(repeating: "a", count: size) + "\r\n"
                #expect(String(buffer: fast) == expected, "size \(size), reply \(replyTo ?? "none")")
            }
        }
    }

    @Test func burstsGoIntoBoundedChunksWrittenInOrder() throws {
        var outbound = NATSOutboundBuffer()
        let payload = ByteBuffer(repeating: UInt8(ascii: "x"), count: 1000)
        let frame = try NATSPublishFrame(subject: "s", replyTo: nil, headers: nil, payload: payload)
        for _ in 0..<200 { outbound.write(frame) }
        let frameSize = "PUB s 1000\r\n".utf8.count + 1000 + 2
        #expect(outbound.pendingBytes == 200 * frameSize)

        let chunks = outbound.takeForWrite()
        #expect(chunks.count > 1)
        #expect(chunks.allSatisfy { $0.readableBytes <= NATSOutboundBuffer.chunkSize + frameSize })
        #expect(chunks.allSatisfy { $0.readableBytes % frameSize == 0 }, "no frame is split across chunks")
        #expect(chunks.reduce(0) { $0 + $1.readableBytes } == 200 * frameSize)
        #expect(outbound.isEmpty)
    }

    /// What the send window counts: bytes taken for writing stay in flight until each chunk's write completes.
    @Test func bytesInFlightAreCountedUntilTheirChunksAreWritten() throws {
        var outbound = NATSOutboundBuffer()
        let payload = ByteBuffer(repeating: UInt8(ascii: "x"), count: 1000)
        for _ in 0..<200 { outbound.writePublish(subject: "s", replyTo: nil, payload: payload) }
        let total = outbound.pendingBytes
        #expect(outbound.inFlightBytes == 0)
        let chunks = outbound.takeForWrite()
        #expect(outbound.pendingBytes == 0)
        #expect(outbound.inFlightBytes == total)
        outbound.written()
        #expect(outbound.inFlightBytes == total - chunks[0].readableBytes)
        for _ in 1..<chunks.count { outbound.written() }
        #expect(outbound.inFlightBytes == 0)
        outbound.written()  // more completions than chunks (a failed channel's) change nothing
        #expect(outbound.inFlightBytes == 0)
        _ = outbound.takeForWrite()
        outbound.writePublish(subject: "s", replyTo: nil, payload: payload)
        _ = outbound.takeForWrite()
        #expect(outbound.inFlightBytes > 0)
        outbound.removeAll()
        #expect(outbound.inFlightBytes == 0)
    }

    /// NIO completes a write's promise before it drops its copy of the buffer: a chunk emptied at completion would
    /// get fresh storage (a new allocation, fresh pages). It is emptied when reused, by when the copy is gone.
    @Test func aChunkStillHeldWhenItsWriteCompletesKeepsItsStorageForReuse() throws {
        var outbound = NATSOutboundBuffer()
        let payload = ByteBuffer(repeating: UInt8(ascii: "x"), count: 1000)
        for _ in 0..<200 { outbound.writePublish(subject: "s", replyTo: nil, payload: payload) }
        var held = outbound.takeForWrite()
        let storages = Set(held.map { chunk in chunk.withVeryUnsafeBytes { UInt(bitPattern: $0.baseAddress) } })
        for _ in held { outbound.written() }  // completions while the channel still holds the chunks
        held.removeAll()  // the channel drops them
        for _ in 0..<200 { outbound.writePublish(subject: "s", replyTo: nil, payload: payload) }
        let reused = outbound.takeForWrite()
        // The first chunk of the second burst is the one that became current when the first burst was taken.
        let reusedStorages = Set(
            reused.dropFirst().map { chunk in chunk.withVeryUnsafeBytes { UInt(bitPattern: $0.baseAddress) } })
        #expect(reused.count > 1)
        #expect(reusedStorages.isSubset(of: storages), "every later chunk of the second burst is one of the first's")
        #expect(reused.allSatisfy { String(buffer: $0).hasPrefix("PUB s 1000\r\n") }, "emptied before reuse")
    }

    @Test func writtenChunksAreReusedAndCommandsKeepTheirOrder() throws {
        var outbound = NATSOutboundBuffer()
        outbound.write(.subscribe(subject: "a", queue: nil, sid: 1))
        outbound.write(
            try NATSPublishFrame(subject: "a", replyTo: nil, headers: nil, payload: ByteBuffer(string: "hi")))
        outbound.write(.ping)
        var chunks = outbound.takeForWrite()
        #expect(chunks.count == 1)
        #expect(String(buffer: chunks[0]) == "SUB a 1\r\nPUB a 2\r\nhi\r\nPING\r\n")
        chunks.removeAll()  // the channel released its copy
        outbound.written()
        outbound.write(.pong)
        let next = outbound.takeForWrite()
        #expect(next.map { String(buffer: $0) } == ["PONG\r\n"])
        #expect(next[0].capacity >= NATSOutboundBuffer.chunkSize, "the recycled chunk keeps its storage")
    }
}

@Suite struct NATSEventBroadcasterTests {
    @Test func everyConsumerGetsEveryEventWithItsOwnBuffer() async {
        let broadcaster = NATSEventBroadcaster()
        let first = broadcaster.makeStream(bufferSize: 10)
        let second = broadcaster.makeStream(bufferSize: 2)
        broadcaster.yield(.lameDuckMode)
        broadcaster.yield(.connected(server: "a"))
        broadcaster.yield(.reconnected(server: "b"))
        broadcaster.finish()
        var firstEvents: [NATSEvent] = []
        for await event in first { firstEvents.append(event) }
        var secondEvents: [NATSEvent] = []
        for await event in second { secondEvents.append(event) }
        #expect(firstEvents == [.lameDuckMode, .connected(server: "a"), .reconnected(server: "b")])
        #expect(
            secondEvents == [.connected(server: "a"), .reconnected(server: "b")], "the small buffer kept the newest")
        var late: [NATSEvent] = []
        for await event in broadcaster.makeStream(bufferSize: 4) { late.append(event) }
        #expect(late.isEmpty, "a stream made after the end ends at once")
    }

    @Test func aConsumerThatStopsIsRemoved() async {
        let broadcaster = NATSEventBroadcaster()
        let kept = broadcaster.makeStream(bufferSize: 4)
        do {
            let dropped = broadcaster.makeStream(bufferSize: 4)
            #expect(broadcaster.consumerCount == 2)
            _ = dropped
        }
        #expect(broadcaster.consumerCount == 1)
        broadcaster.finish()
        for await _ in kept {}
    }

    @Test func listenersHearEveryEventUntilRemovedAndNoneJoinsAfterTheEnd() {
        let broadcaster = NATSEventBroadcaster()
        let heard = NIOLockedValueBox<[NATSEvent]>([])
        let id = broadcaster.addListener { event in heard.withLockedValue { $0.append(event) } }
        #expect(id != nil && broadcaster.listenerCount == 1)
        broadcaster.yield(.reconnected(server: "b"))
        broadcaster.yield(.lameDuckMode)
        if let id { broadcaster.removeListener(id) }
        broadcaster.yield(.connected(server: "c"))
        #expect(heard.withLockedValue { $0 } == [.reconnected(server: "b"), .lameDuckMode])
        #expect(broadcaster.listenerCount == 0)
        _ = broadcaster.addListener { _ in }
        broadcaster.finish()
        #expect(broadcaster.listenerCount == 0, "the end lets every listener go")
        #expect(broadcaster.addListener { _ in } == nil)
    }
}
