// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import NIOCore
import Testing

@testable import NATSClient

/// The JSON of stream and consumer configurations, acknowledgements and durations, against bodies nats-server
/// 2.9.10 sent.
@Suite struct JetStreamJSONTests {
    private func json(_ value: some Encodable) throws -> String {
        String(buffer: try JetStreamJSON.encode(value))
    }

    @Test func aStreamConfigurationEncodesItsLimitsAndDurations() throws {
        let configuration = StreamConfiguration(
            name: "MAILBOX",
            subjects: ["OwnerSpace.*.forApp.mailbox.>"],
            storage: .file,
            maxAge: .seconds(7 * 24 * 3600),
            maxBytes: 1 << 30,
            maxMessagesPerSubject: 1000,
            maxMessageSize: 65536,
            duplicateWindow: .seconds(120),
            discard: .old
        )
        #expect(
            try json(configuration)
                == #"{"discard":"old","duplicate_window":120000000000,"max_age":604800000000000,"max_bytes":1073741824,"#
                + #""max_msg_size":65536,"max_msgs":-1,"max_msgs_per_subject":1000,"name":"MAILBOX","num_replicas":1,"#
                + #""retention":"limits","storage":"file","subjects":["OwnerSpace.*.forApp.mailbox.>"]}"#)
    }

    @Test func unsetLimitsEncodeAsUnlimitedAndTheDuplicateWindowIsLeftToTheServer() throws {
        let text = try json(StreamConfiguration(name: "S", subjects: ["s.>"], storage: .memory, retention: .workQueue))
        #expect(
            text
                == #"{"discard":"old","max_age":0,"max_bytes":-1,"max_msg_size":-1,"max_msgs":-1,"#
                + #""max_msgs_per_subject":-1,"name":"S","num_replicas":1,"retention":"workqueue","storage":"memory","#
                + #""subjects":["s.>"]}"#)
    }

    @Test func aStreamInfoFromTheServerDecodesUnlimitedAsNil() throws {
        // nats-server 2.9.10's answer to STREAM.INFO (created and timestamps kept as sent).
        let answer = #"""
            {"type":"io.nats.jetstream.api.v1.stream_info_response","total":0,"offset":0,"limit":0,"config":{"name":"MB",\#
            "subjects":["mb.\u003e","mb2.\u003e"],"retention":"limits","max_consumers":-1,"max_msgs":-1,"max_bytes":-1,\#
            "max_age":0,"max_msgs_per_subject":5,"max_msg_size":-1,"discard":"old","storage":"file","num_replicas":1,\#
            "duplicate_window":120000000000,"allow_direct":false,"mirror_direct":false,"sealed":false,"deny_delete":false,\#
            "deny_purge":false,"allow_rollup_hdrs":false},"created":"2026-11-28T18:19:31.907290489Z","state":{"messages":3,\#
            "bytes":204,"first_seq":1,"first_ts":"2026-11-28T18:19:31.915147779Z","last_seq":3,\#
            "last_ts":"2026-11-28T18:19:31.915779036Z","num_subjects":1,"consumer_count":0}}
            """#
        let info = try JetStreamJSON.decode(StreamInfo.self, from: ByteBuffer(string: answer))
        #expect(
            info.configuration
                == StreamConfiguration(
                    name: "MB", subjects: ["mb.>", "mb2.>"], maxMessagesPerSubject: 5, duplicateWindow: .seconds(120)))
        #expect(info.state == StreamState(messages: 3, bytes: 204, firstSequence: 1, lastSequence: 3, consumerCount: 0))
    }

    @Test func aConsumerConfigurationEncodesWhatIsSetOnly() throws {
        let configuration = ConsumerConfiguration(
            durableName: "device-1",
            filterSubject: "OwnerSpace.g1.forApp.mailbox.>",
            ackWait: .seconds(30),
            maxDeliver: 5,
            deliverPolicy: .startSequence(42),
            maxAckPending: 100,
            inactiveThreshold: .seconds(3600)
        )
        #expect(
            try json(ConsumerCreateRequest(streamName: "MAILBOX", configuration: configuration))
                == #"{"config":{"ack_policy":"explicit","ack_wait":30000000000,"deliver_policy":"by_start_sequence","#
                + #""durable_name":"device-1","filter_subject":"OwnerSpace.g1.forApp.mailbox.>","inactive_threshold":3600000000000,"#
                + #""max_ack_pending":100,"max_deliver":5,"opt_start_seq":42},"stream_name":"MAILBOX"}"#)
        #expect(
            try json(ConsumerConfiguration(durableName: "c", deliverPolicy: .lastPerSubject))
                == #"{"ack_policy":"explicit","deliver_policy":"last_per_subject","durable_name":"c"}"#)
    }

    @Test func aConsumerInfoFromTheServerDecodes() throws {
        let answer = #"""
            {"type":"io.nats.jetstream.api.v1.consumer_create_response","stream_name":"MB","name":"C5",\#
            "created":"2026-11-28T18:20:46.714443036Z","config":{"durable_name":"C5","name":"C5",\#
            "deliver_policy":"by_start_sequence","opt_start_seq":2,"ack_policy":"explicit","ack_wait":30000000000,\#
            "max_deliver":-1,"filter_subject":"mb.\u003e","replay_policy":"instant","max_waiting":512,\#
            "max_ack_pending":1000,"num_replicas":0},"delivered":{"consumer_seq":0,"stream_seq":1},\#
            "ack_floor":{"consumer_seq":0,"stream_seq":0},"num_ack_pending":0,"num_redelivered":0,"num_waiting":0,\#
            "num_pending":2}
            """#
        let info = try JetStreamJSON.decode(ConsumerInfo.self, from: ByteBuffer(string: answer))
        #expect(info.streamName == "MB")
        #expect(info.name == "C5")
        #expect(
            info.configuration
                == ConsumerConfiguration(
                    durableName: "C5", filterSubject: "mb.>", ackWait: .seconds(30), deliverPolicy: .startSequence(2),
                    maxAckPending: 1000))
        #expect(info.delivered == ConsumerSequence(consumerSequence: 0, streamSequence: 1))
        #expect(info.pending == 2)
    }

    @Test func anUnknownDeliverPolicyIsAnInvalidResponse() {
        let answer = #"{"stream_name":"S","name":"C","config":{"durable_name":"C","deliver_policy":"by_start_time"}}"#
        let error = #expect(throws: JetStreamError.self) {
            _ = try JetStreamJSON.decode(ConsumerInfo.self, from: ByteBuffer(string: answer))
        }
        #expect(error?.code == .invalidResponse)
    }

    @Test func aPubAckDecodesWithAndWithoutDuplicate() throws {
        // The server writes these with a space after the comma.
        #expect(
            try JetStreamJSON.decode(PubAck.self, from: ByteBuffer(string: #"{"stream":"MB", "seq":1}"#))
                == PubAck(stream: "MB", sequence: 1, duplicate: false))
        #expect(
            try JetStreamJSON.decode(
                PubAck.self, from: ByteBuffer(string: #"{"stream":"MB", "seq":1,"duplicate": true}"#))
                == PubAck(stream: "MB", sequence: 1, duplicate: true))
    }

    @Test(arguments: [
        #"{"stream":"MB", "seq":1}"#, #"{"stream":"MB","seq":18446744073709551615,"duplicate":true}"#,
        #" { "stream" : "MB" , "seq" : 0 , "duplicate" : false } "#, #"{"stream":"MB","domain":"hub","seq":7}"#,
        #"{"seq":2,"stream":"MB","duplicate":null,"other":15,"flag":true,"nothing":null}"#,
    ])
    func aPubAckAsTheServerWritesItIsReadWithoutAJSONDecoder(answer: String) throws {
        let fast = try #require(PubAck(flatJSON: ByteBuffer(string: answer)))
        #expect(fast == (try JetStreamJSON.decode(PubAck.self, from: ByteBuffer(string: answer))))
    }

    @Test(arguments: [
        // The general decoder reads these, or says why not.
        #"{"error":{"code":503,"err_code":10039,"description":"jetstream not enabled"}}"#,
        #"{"stream":"MB","seq":1,"error":{"code":400,"err_code":10071,"description":"wrong last sequence: 3"}}"#,
        #"{"stream":"M\u0042","seq":1}"#, #"{"stream":"Ä","seq":1}"#, #"{"stream":"MB","seq":1.0}"#,
        #"{"stream":"MB","seq":01}"#, #"{"stream":"MB","seq":-1}"#, #"{"stream":"MB","seq":18446744073709551616}"#,
        #"{"stream":"MB","seq":1,"seq":2}"#, #"{"stream":"MB"}"#, #"{"seq":1}"#, #"{}"#, #"{"stream":"MB","seq":1}x"#,
        #"{"stream":"MB","seq":1,"config":{}}"#, #"{"stream":"MB","seq":1,"tags":[]}"#, #"{"stream":"MB","seq":1,}"#,
        #"{"stream":null,"seq":1}"#, #"{"stream":"MB","seq":"1"}"#, #"{"stream":"MB","seq":1,"duplicate":1}"#,
        #"{"stream":"MB","seq":1"#, "", "[]", #"{"stream":"MB","seq":1,"t":tru}"#, #"{"stream":"MB","seq":1,"n":-1}"#,
    ])
    func anythingElseIsLeftToTheJSONDecoder(answer: String) {
        #expect(PubAck(flatJSON: ByteBuffer(string: answer)) == nil)
    }

    @Test func durationsAreNanoseconds() {
        #expect(JetStreamJSON.nanoseconds(.seconds(2)) == 2_000_000_000)
        #expect(JetStreamJSON.nanoseconds(.milliseconds(1500)) == 1_500_000_000)
        #expect(JetStreamJSON.nanoseconds(.nanoseconds(7)) == 7)
        #expect(JetStreamJSON.nanoseconds(.seconds(Int64.max)) == .max)
        #expect(JetStreamJSON.duration(nanoseconds: 30_000_000_000) == .seconds(30))
    }
}
