// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import NIOCore
import NIOEmbedded
import NIOTestUtils
import Testing

@testable import NATSClient

@Suite struct NATSProtocolDecoderTests {
    func buffer(_ text: String) -> ByteBuffer { ByteBuffer(string: text) }

    func parseAll(_ text: String) throws -> [NATSServerOperation] {
        var input = buffer(text)
        var result: [NATSServerOperation] = []
        while let operation = try NATSProtocolDecoder.parse(&input) { result.append(operation) }
        #expect(input.readableBytes == 0)
        return result
    }

    @Test func verifierWithFragmentedInput() throws {
        var headers = NATSHeaders()
        headers.append(name: "Trace-Id", value: "abc")
        headers.append(name: "trace-id", value: "second")
        let block = "NATS/1.0\r\nTrace-Id: abc\r\ntrace-id: second\r\n\r\n"
        let pairs: [(String, [NATSServerOperation])] = [
            ("PING\r\n", [.ping]),
            ("PONG\r\n", [.pong]),
            ("+OK\r\n", [.ok]),
            (
                "-ERR 'Permissions Violation for Publish to \"x\"'\r\n",
                [.error("Permissions Violation for Publish to \"x\"")]
            ),
            (
                "MSG foo.bar 9 5\r\nhello\r\n",
                [.message(sid: 9, NATSMessage(subject: "foo.bar", payload: buffer("hello")))]
            ),
            (
                "MSG a 1 _INBOX.x.y 12\r\nwith\r\ncrlf..\r\n",
                [.message(sid: 1, NATSMessage(subject: "a", replyTo: "_INBOX.x.y", payload: buffer("with\r\ncrlf..")))]
            ),
            ("MSG empty 2 0\r\n\r\n", [.message(sid: 2, NATSMessage(subject: "empty", payload: buffer("")))]),
            (
                "HMSG h 3 \(block.utf8.count) \(block.utf8.count + 2)\r\n\(block)hi\r\n",
                [.message(sid: 3, NATSMessage(subject: "h", headers: headers, payload: buffer("hi")))]
            ),
            (
                "HMSG _INBOX.r.1 4 16 16\r\nNATS/1.0 503\r\n\r\n\r\n",
                [
                    .message(
                        sid: 4,
                        NATSMessage(subject: "_INBOX.r.1", headers: NATSHeaders(status: 503), payload: buffer("")))
                ]
            ),
            (
                "INFO {\"server_id\":\"S1\",\"proto\":1,\"headers\":true,\"max_payload\":1024,\"connect_urls\":[\"10.0.0.1:4222\"]}\r\n",
                [.info(info(id: "S1", maxPayload: 1024, connectURLs: ["10.0.0.1:4222"]))]
            ),
        ]
        try ByteToMessageDecoderVerifier.verifyDecoder(stringInputOutputPairs: pairs) { NATSProtocolDecoder() }
    }

    func info(id: String, maxPayload: Int, connectURLs: [String]) -> NATSServerInfo {
        NATSServerInfo(serverID: id, proto: 1, headers: true, maxPayload: maxPayload, connectURLs: connectURLs)
    }

    @Test func headerStatusWithDescription() throws {
        let block = "NATS/1.0 408 Request Timeout\r\nNats-Pending-Messages: 1\r\n\r\n"
        let operations = try parseAll("HMSG s 1 \(block.utf8.count) \(block.utf8.count + 3)\r\n\(block)abc\r\n")
        guard case .message(_, let message) = operations.first else {
            Issue.record("no message")
            return
        }
        #expect(message.headers?.status == 408)
        #expect(message.headers?.statusDescription == "Request Timeout")
        #expect(message.headers?["Nats-Pending-Messages"] == "1")
        #expect(message.headers?["nats-pending-messages"] == nil)
        #expect(message.payloadString == "abc")
    }

    @Test func lowercaseOperationsAndTabs() throws {
        let operations = try parseAll("ping\r\nmsg\tfoo\t1\t2\r\nok\r\n")
        #expect(operations == [.ping, .message(sid: 1, NATSMessage(subject: "foo", payload: buffer("ok")))])
    }

    /// The channel handler's path: a complete MSG or HMSG comes back as a frame that leaves its payload in the
    /// buffer (the index is where the payload starts); any other frame, and an incomplete message, consumes nothing
    /// and is left to `parse`.
    @Test func parseMessageFrameTakesCompleteMessagesOnly() throws {
        let text =
            "MSG a.b 7 5\r\nhello\r\nmsg c 8 _INBOX.x 2\r\nhi\r\nHMSG h 9 12 15\r\nNATS/1.0\r\n\r\nabc\r\n"
            + "PING\r\nMSG d 9 4\r\nwo"
        var input = buffer(text)
        let whole = input
        func payload(_ frame: NATSMessageFrame) -> String? {
            whole.getString(at: frame.payloadIndex, length: frame.payloadLength)
        }
        let first = try #require(try NATSProtocolDecoder.parseMessageFrame(&input))
        #expect(first.sid == 7 && first.subject == "a.b" && first.replyTo == nil && first.headers == nil)
        #expect(payload(first) == "hello" && input.readerIndex == first.end)
        let second = try #require(try NATSProtocolDecoder.parseMessageFrame(&input))
        #expect(second.sid == 8 && second.subject == "c" && second.replyTo == "_INBOX.x" && payload(second) == "hi")
        let third = try #require(try NATSProtocolDecoder.parseMessageFrame(&input))
        #expect(third.sid == 9 && third.subject == "h" && third.headers == NATSHeaders() && payload(third) == "abc")
        let atPing = input.readableBytes
        #expect(try NATSProtocolDecoder.parseMessageFrame(&input) == nil)
        #expect(input.readableBytes == atPing)
        #expect(try NATSProtocolDecoder.parse(&input) == .ping)
        let partial = input.readableBytes
        #expect(try NATSProtocolDecoder.parseMessageFrame(&input) == nil)
        #expect(input.readableBytes == partial)
        #expect(throws: NATSProtocolError.self) { try NATSProtocolDecoder.parseMessageFrame(&input, maxPayload: 3) }
        var noCRLF = buffer("MSG a 1 2\r\nhiXY")
        #expect(throws: NATSProtocolError.self) { try NATSProtocolDecoder.parseMessageFrame(&noCRLF) }
    }

    @Test func incompleteFramesConsumeNothing() throws {
        for partial in [
            "PIN", "MSG foo 1 5\r\nhel", "MSG foo 1 5\r\nhello", "MSG foo 1 5\r\nhello\r", "INFO {\"server_id\":",
        ] {
            var input = buffer(partial)
            #expect(try NATSProtocolDecoder.parse(&input) == nil)
            #expect(input.readableBytes == partial.utf8.count)
        }
    }

    @Test(arguments: [
        ("FOO bar\r\n", NATSProtocolError.Code.unknownOperation),
        ("MSG foo\r\n", .invalidArguments),
        ("MSG foo 1 2 3 4 5\r\n", .invalidArguments),
        ("MSG foo x 5\r\nhello\r\n", .invalidArguments),
        ("MSG foo 1 -5\r\nhello\r\n", .invalidArguments),
        ("MSG foo 1 3\r\nhelloXX", .invalidPayload),
        ("HMSG foo 1 10 5\r\n", .invalidArguments),
        ("HMSG foo 1 4 6\r\nXXXXhi\r\n", .invalidHeaders),
        ("HMSG foo 1 15 15\r\nNATS/1.0 5x\r\n\r\n\r\n", .invalidHeaders),
        ("INFO {not json}\r\n", .invalidInfo),
    ])
    func malformedInputIsATypedError(input: String, code: NATSProtocolError.Code) {
        var buffer = ByteBuffer(string: input)
        do {
            _ = try NATSProtocolDecoder.parse(&buffer)
            Issue.record("\(input.debugDescription) parsed")
        } catch {
            #expect(error.code == code)
        }
    }

    @Test func oversizedControlLineIsRejected() throws {
        var input = ByteBuffer(string: "MSG " + String(repeating: "a", count: 200))
        do {
            _ = try NATSProtocolDecoder.parse(&input, maxControlLine: 128)
            Issue.record("an oversized control line was accepted")
        } catch {
            #expect(error.code == .controlLineTooLong)
        }
        // Below the limit without a line end: just wait for more.
        var short = ByteBuffer(string: "MSG " + String(repeating: "a", count: 50))
        #expect(try NATSProtocolDecoder.parse(&short, maxControlLine: 128) == nil)
    }

    @Test func oversizedPayloadIsRejected() {
        var input = ByteBuffer(string: "MSG foo 1 999999\r\n")
        #expect(throws: NATSProtocolError.self) { try NATSProtocolDecoder.parse(&input, maxPayload: 1000) }
    }

    @Test func decoderInAPipelineReportsErrors() throws {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(NATSProtocolDecoder()))
        try channel.writeInbound(ByteBuffer(string: "PING\r\nMSG a 1 1\r\nx\r\n"))
        #expect(try channel.readInbound(as: NATSServerOperation.self) == .ping)
        #expect(
            try channel.readInbound(as: NATSServerOperation.self)
                == .message(sid: 1, NATSMessage(subject: "a", payload: ByteBuffer(string: "x")))
        )
        #expect(throws: NATSProtocolError.self) { try channel.writeInbound(ByteBuffer(string: "BOGUS\r\n")) }
        _ = try? channel.finish()
    }

    @Test func payloadIsCopiedByDefault() throws {
        var input = ByteBuffer(string: "MSG foo 1 5\r\nhello\r\n")
        let operation = try NATSProtocolDecoder.parse(&input)
        guard case .message(_, let message) = operation else {
            Issue.record("no message")
            return
        }
        #expect(message.payloadString == "hello")
        input.moveReaderIndex(to: 0)
        input.withUnsafeReadableBytes { inputBytes in
            message.payload.withUnsafeReadableBytes { payloadBytes in
                #expect(payloadBytes.baseAddress != inputBytes.baseAddress! + 13)
            }
        }
    }

    @Test func zeroCopyPayloadIsASliceOfTheInputBuffer() throws {
        var input = ByteBuffer(string: "MSG foo 1 5\r\nhello\r\n")
        let operation = try NATSProtocolDecoder.parse(&input, zeroCopyPayloads: true)
        guard case .message(_, let message) = operation else {
            Issue.record("no message")
            return
        }
        // A slice shares storage with the input: no payload copy.
        input.moveReaderIndex(to: 0)
        input.withUnsafeReadableBytes { inputBytes in
            message.payload.withUnsafeReadableBytes { payloadBytes in
                #expect(payloadBytes.baseAddress == inputBytes.baseAddress! + 13)
            }
        }
    }
}
