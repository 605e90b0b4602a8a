// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import NIOCore
import Testing

@testable import NATSClient

@Suite struct NATSProtocolEncoderTests {
    func encode(_ command: NATSClientCommand) -> String {
        var buffer = ByteBuffer()
        buffer.writeNATSCommand(command)
        return String(buffer: buffer)
    }

    /// The frame the outbound buffer writes for one publish.
    func encode(subject: String, replyTo: String?, headers: NATSHeaders? = nil, payload: String) throws -> String {
        var outbound = NATSOutboundBuffer()
        outbound.write(
            try NATSPublishFrame(
                subject: subject, replyTo: replyTo, headers: headers, payload: ByteBuffer(string: payload)))
        return outbound.takeForWrite().map { String(buffer: $0) }.joined()
    }

    @Test func publishFrames() throws {
        #expect(try encode(subject: "foo", replyTo: nil, payload: "hello") == "PUB foo 5\r\nhello\r\n")
        #expect(try encode(subject: "foo", replyTo: "_INBOX.a", payload: "") == "PUB foo _INBOX.a 0\r\n\r\n")
        let large = try encode(subject: "s", replyTo: nil, payload: String(repeating: "x", count: 1234))
        #expect(large.hasPrefix("PUB s 1234\r\nxxx"))
        #expect(large.utf8.count == "PUB s 1234\r\n".utf8.count + 1234 + 2)
        #expect(throws: NATSError.self) { try encode(subject: "bad subject", replyTo: nil, payload: "") }
    }

    @Test func headerPublishFrameRoundTripsThroughTheDecoder() throws {
        let headers = NATSHeaders([("A", "1"), ("b", "two words")])
        let frame = try NATSPublishFrame(
            subject: "h.x", replyTo: "r", headers: headers, payload: ByteBuffer(string: "body"))
        // The header block is encoded once, when the frame is made; its size is what max_payload is checked on.
        #expect(frame.size == "NATS/1.0\r\nA: 1\r\nb: two words\r\n\r\n".utf8.count + 4)
        let text = try encode(subject: "h.x", replyTo: "r", headers: headers, payload: "body")
        let block = "NATS/1.0\r\nA: 1\r\nb: two words\r\n\r\n"
        #expect(text == "HPUB h.x r \(block.utf8.count) \(block.utf8.count + 4)\r\n\(block)body\r\n")
        // The server turns HPUB into HMSG with the same block: check our decoder reads it back.
        var echoed = ByteBuffer(string: "HMSG h.x 7 r \(block.utf8.count) \(block.utf8.count + 4)\r\n\(block)body\r\n")
        let operation = try NATSProtocolDecoder.parse(&echoed)
        #expect(
            operation
                == .message(
                    sid: 7,
                    NATSMessage(subject: "h.x", replyTo: "r", headers: headers, payload: ByteBuffer(string: "body"))))
    }

    @Test func subscriptionFrames() {
        #expect(encode(.subscribe(subject: "a.*", queue: nil, sid: 1)) == "SUB a.* 1\r\n")
        #expect(encode(.subscribe(subject: "a.>", queue: "workers", sid: 42)) == "SUB a.> workers 42\r\n")
        #expect(encode(.unsubscribe(sid: 42, max: nil)) == "UNSUB 42\r\n")
        #expect(encode(.unsubscribe(sid: 42, max: 10)) == "UNSUB 42 10\r\n")
        #expect(encode(.ping) == "PING\r\n")
        #expect(encode(.pong) == "PONG\r\n")
    }

    @Test func decimalWriter() {
        for value: UInt64 in [0, 7, 10, 99, 100, 12345, 1_048_576, UInt64.max] {
            var buffer = ByteBuffer()
            buffer.writeDecimal(value)
            #expect(String(buffer: buffer) == String(value))
        }
    }

    @Test func connectFrame() throws {
        var options = NATSConnectOptions()
        options.name = "svc/1"
        options.echo = false
        options.authToken = "s3cret"
        var buffer = ByteBuffer()
        buffer.writeNATSConnect(options)
        let text = String(buffer: buffer)
        #expect(text.hasPrefix("CONNECT {"))
        #expect(text.hasSuffix("}\r\n"))
        #expect(text.contains(#""name":"svc/1""#))
        #expect(text.contains(#""echo":false"#))
        #expect(text.contains(#""protocol":1"#))
        #expect(text.contains(#""headers":true"#))
        #expect(text.contains(#""no_responders":true"#))
        #expect(text.contains(#""auth_token":"s3cret""#))
        #expect(!text.contains("\"pass\""))
        #expect(!options.description.contains("s3cret"))
    }

    @Test(arguments: [
        ("foo", true, true), ("foo.bar.baz", true, true), ("foo.*", true, true), ("foo.>", true, true),
        (">", true, true),
        ("", false, false), ("foo bar", false, false), ("foo\tbar", false, false), ("foo..bar", true, false),
        (".foo", true, false), ("foo.", true, false), ("foo.>.bar", true, false), ("foo.b*", true, false),
    ])
    func subjectValidation(subject: String, publishOK: Bool, subscribeOK: Bool) {
        #expect(NATSSubjectValidator.isValidPublishSubject(subject) == publishOK)
        #expect(NATSSubjectValidator.isValidSubscribeSubject(subject) == subscribeOK)
    }
}
