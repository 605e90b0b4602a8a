import NIOCore
import NIOEmbedded
import Testing

@testable import NATSClient

@Suite struct NATSProtocolEncoderTests {
    func encode(_ command: NATSClientCommand) -> String {
        var buffer = ByteBuffer()
        buffer.writeNATSCommand(command)
        return String(buffer: buffer)
    }

    @Test func publishFrames() {
        #expect(
            encode(.publish(subject: "foo", replyTo: nil, headers: nil, payload: ByteBuffer(string: "hello")))
                == "PUB foo 5\r\nhello\r\n")
        #expect(
            encode(.publish(subject: "foo", replyTo: "_INBOX.a", headers: nil, payload: ByteBuffer()))
                == "PUB foo _INBOX.a 0\r\n\r\n"
        )
        var raw = ByteBuffer()
        raw.writeNATSPublish(subject: "s", replyTo: nil, bytes: Array(repeating: UInt8(ascii: "x"), count: 1234))
        #expect(String(buffer: raw).hasPrefix("PUB s 1234\r\nxxx"))
        #expect(raw.readableBytes == "PUB s 1234\r\n".utf8.count + 1234 + 2)
    }

    @Test func headerPublishFrameRoundTripsThroughTheDecoder() throws {
        let headers = NATSHeaders([("A", "1"), ("b", "two words")])
        let text = encode(.publish(subject: "h.x", replyTo: "r", headers: headers, payload: ByteBuffer(string: "body")))
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
        let text = encode(.connect(options))
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

    @Test func encoderInAPipeline() throws {
        let channel = EmbeddedChannel(handler: MessageToByteHandler(NATSProtocolEncoder()))
        try channel.writeOutbound(NATSClientCommand.ping)
        try channel.writeOutbound(NATSClientCommand.subscribe(subject: "x", queue: nil, sid: 5))
        #expect(try channel.readOutbound(as: ByteBuffer.self).map { String(buffer: $0) } == "PING\r\n")
        #expect(try channel.readOutbound(as: ByteBuffer.self).map { String(buffer: $0) } == "SUB x 5\r\n")
        _ = try channel.finish()
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
