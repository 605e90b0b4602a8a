// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import NIOCore
import Testing
import VettIDTestSupport

@testable import NATSClient

/// Statuses on a pull's reply subject (ADR-13, ADR-37; the texts are nats-server 2.9.10's), ack subjects and ack
/// payloads, pull bodies, and the fetch's watchdog.
@Suite struct JetStreamPullStatusTests {
    private func status(_ code: Int?, _ text: String? = nil) -> JetStreamPullStatus {
        let headers = code.map { NATSHeaders(status: $0, statusDescription: text) }
        return JetStreamPullStatus(NATSMessage(subject: "_INBOX.x", headers: headers, payload: ByteBuffer()))
    }

    private func failureCode(_ status: JetStreamPullStatus) -> JetStreamError.Code? {
        if case .failure(let error) = status { error.code } else { nil }
    }

    @Test func aMessageWithoutStatusIsADelivery() {
        guard case .message = status(nil) else {
            Issue.record("not a delivery")
            return
        }
    }

    @Test func idleHeartbeatsOnlyShowTheServerIsAlive() {
        guard case .heartbeat = status(100, "Idle Heartbeat") else {
            Issue.record("not a heartbeat")
            return
        }
    }

    @Test(arguments: [
        (404, "No Messages"), (408, "Request Timeout"), (409, "Message Size Exceeds MaxBytes"),
        (409, "Leadership Change"),
    ])
    func theseEndThePullWithoutError(code: Int, text: String) {
        guard case .end = status(code, text) else {
            Issue.record("\(code) \(text) does not end the pull")
            return
        }
    }

    @Test func aDeletedConsumerFailsThePull() {
        #expect(failureCode(status(409, "Consumer Deleted")) == .consumerDeleted)
    }

    @Test(arguments: [
        (400, "Bad Request - heartbeat value too large"), (409, "Exceeded MaxWaiting"),
        (409, "Exceeded MaxRequestBatch of 10"),
        (409, "Consumer is push based"), (500, "Internal"),
    ])
    func refusalsFailThePullWithTheirStatus(code: Int, text: String) throws {
        guard case .failure(let error) = status(code, text) else {
            Issue.record("\(code) \(text) is not a failure")
            return
        }
        #expect(error.code == .pullRefused)
        #expect(error.apiError == JetStreamAPIError(code: code, errorCode: 0, description: text))
    }

    @Test func noRespondersIsNotEnabled() {
        #expect(failureCode(status(503)) == .notEnabled)
    }

    @Test func anAckSubjectGivesTheMessagesPlace() throws {
        // As nats-server 2.9.10 sent it (second delivery of stream sequence 2).
        let metadata = try #require(JetStreamMessageMetadata(ackSubject: "$JS.ACK.P.D.2.2.5.1795890431033768813.0"))
        #expect(
            metadata
                == JetStreamMessageMetadata(
                    stream: "P", consumer: "D", delivered: 2, streamSequence: 2, consumerSequence: 5,
                    timestamp: 1_795_890_431_033_768_813, pending: 0))
        let withDomain = try #require(
            JetStreamMessageMetadata(ackSubject: "$JS.ACK.hub.ACCHASH.MAILBOX.d1.1.10.3.1700000000000000000.7.r4nd"))
        #expect(withDomain.domain == "hub")
        #expect(withDomain.stream == "MAILBOX")
        #expect(withDomain.consumer == "d1")
        #expect(withDomain.streamSequence == 10)
        #expect(withDomain.consumerSequence == 3)
        #expect(withDomain.pending == 7)
        #expect(JetStreamMessageMetadata(ackSubject: "$JS.ACK._.ACCHASH.S.C.1.1.1.1.0.x")?.domain == nil)
        // The largest values each field takes, and a timestamp before 1970.
        let extremes = try #require(
            JetStreamMessageMetadata(
                ackSubject: "$JS.ACK.S.C.18446744073709551615.1.1.-9223372036854775808.18446744073709551615"))
        #expect(extremes.delivered == .max && extremes.pending == .max && extremes.timestamp == .min)
        #expect(JetStreamMessageMetadata(ackSubject: "$JS.ACK.hub.H.S.C.1.2.3.4.5")?.streamSequence == 2)
    }

    @Test(arguments: [
        "_INBOX.abc", "$JS.ACK.P.D.1.1.1", "$JS.ACK.P.D.x.1.1.1.0", "$JS.API.P.D.1.1.1.1.0",
        "$JS.ACK.P.D.1.1.1.1.0.extra",
        "$JS.ACK.P.D.-1.1.1.1.0", "$JS.ACK.P.D.18446744073709551616.1.1.1.0",
        "$JS.ACK.P.D.1.1.1.9223372036854775808.0", "$JS.ACK.P.D.1.1.1.1.", "$JS.ACK.", "$JS.ACK",
        "$JS.ACK.a.b.c.P.D.1.1.1.1.0.r.s",
        // Whitespace and control characters (an ack is published to the subject without another check).
        "$JS.ACK.P D.C.1.1.1.1.0", "$JS.ACK.P.C\r\nPUB x 0.1.1.1.1.0", "$JS.ACK.P.C\t.1.1.1.1.0",
        "$JS.ACK.P.C.1.1.1.1.0\u{7F}", "$JS.ACK.P.\u{0}.1.1.1.1.0", "$js.ack.P.D.1.1.1.1.0", "$JS.ACK/P.D.1.1.1.1.0",
    ])
    func otherSubjectsAreNotAckSubjects(subject: String) {
        #expect(JetStreamMessageMetadata(ackSubject: subject) == nil)
    }

    @Test func knownNamesAreReusedOnlyWhenTheSubjectNamesThem() throws {
        let subject = "$JS.ACK.MAILBOX.d1.1.4.4.1795890431033768813.0"
        let plain = try #require(JetStreamMessageMetadata(ackSubject: subject))
        #expect(JetStreamMessageMetadata(ackSubject: subject, stream: "MAILBOX", consumer: "d1") == plain)
        // Other names (also one that differs only in length, or in its last byte) are not taken for the subject's.
        for (stream, consumer) in [("MAILBOXES", "d2"), ("MAILBOY", "d"), ("", "d1\u{0}")] {
            let read = try #require(JetStreamMessageMetadata(ackSubject: subject, stream: stream, consumer: consumer))
            #expect(read == plain)
            #expect(read.stream == "MAILBOX" && read.consumer == "d1")
        }
    }

    @Test func ackPayloads() {
        #expect(JetStreamAck.ack.payload == "+ACK")
        #expect(JetStreamAck.nak().payload == "-NAK")
        #expect(JetStreamAck.nak(delay: .seconds(1)).payload == #"-NAK {"delay":1000000000}"#)
        #expect(JetStreamAck.inProgress.payload == "+WPI")
        #expect(JetStreamAck.terminate.payload == "+TERM")
    }

    @Test func aPullRequestSendsWhatIsSet() throws {
        let full = JetStreamPullRequest(
            batch: 10, expires: .seconds(5), noWait: false, maxBytes: 4096, idleHeartbeat: .seconds(1))
        #expect(
            String(buffer: try JetStreamJSON.encode(full))
                == #"{"batch":10,"expires":5000000000,"idle_heartbeat":1000000000,"max_bytes":4096}"#)
        let noWait = JetStreamPullRequest(batch: 1, expires: nil, noWait: true, maxBytes: nil, idleHeartbeat: nil)
        #expect(String(buffer: try JetStreamJSON.encode(noWait)) == #"{"batch":1,"no_wait":true}"#)
    }

    /// The body a fetch sends is written by hand; it must be the bytes the `Encodable` form encodes to, for every
    /// combination of what is set (durations below a nanosecond, large counts, zero).
    @Test(arguments: [nil, Duration.nanoseconds(1), .milliseconds(1500), .seconds(86_400 * 365)], [nil, 1, 1 << 40])
    func theWrittenBodyIsTheEncodedOne(duration: Duration?, maxBytes: Int?) throws {
        for noWait in [false, true] {
            for batch in [1, 500, Int.max] {
                let request = JetStreamPullRequest(
                    batch: batch, expires: duration, noWait: noWait, maxBytes: maxBytes,
                    idleHeartbeat: duration.map { $0 / 3 })
                #expect(String(buffer: request.body) == String(buffer: try JetStreamJSON.encode(request)))
            }
        }
    }

    /// The watchdog on bare instants (a ManualClock's; the watchdog reads no clock itself).
    private typealias Watchdog = JetStreamFetchWatchdog<ManualClock.Instant>

    /// The instant `offset` after a clock's start.
    private func at(_ offset: Duration) -> ManualClock.Instant { ManualClock().now.advanced(by: offset) }

    @Test func withoutHeartbeatsOnlyTheAnswerTimeEndsAFetch() {
        var watchdog = Watchdog(start: at(.seconds(1)), answerWithin: .seconds(31), idleHeartbeat: nil)
        #expect(watchdog.deadline == at(.seconds(32)))
        #expect(watchdog.failure(at: at(.seconds(31)), subject: "s") == nil)
        watchdog.heard(at: at(.seconds(20)))
        #expect(watchdog.deadline == at(.seconds(32)))
        #expect(watchdog.failure(at: at(.seconds(32)), subject: "s")?.code == .timeout)
    }

    @Test func twoHeartbeatsOfSilenceAreAMissedHeartbeat() {
        var watchdog = Watchdog(start: at(.zero), answerWithin: .seconds(31), idleHeartbeat: .seconds(5))
        // Silence is counted from the start until something is heard.
        #expect(watchdog.deadline == at(.seconds(10)))
        #expect(watchdog.failure(at: at(.milliseconds(9999)), subject: "s") == nil)
        #expect(watchdog.failure(at: at(.seconds(10)), subject: "s")?.code == .missedHeartbeat)
        // Then from what was heard last; what was heard earlier than that does not move it back.
        watchdog.heard(at: at(.seconds(8)))
        watchdog.heard(at: at(.seconds(7)))
        #expect(watchdog.deadline == at(.seconds(18)))
        #expect(watchdog.failure(at: at(.milliseconds(17999)), subject: "s") == nil)
        #expect(watchdog.failure(at: at(.seconds(18)), subject: "s")?.code == .missedHeartbeat)
    }

    @Test func theAnswerTimeComesBeforeAHeartbeatDueLater() {
        var watchdog = Watchdog(start: at(.zero), answerWithin: .seconds(11), idleHeartbeat: .seconds(5))
        watchdog.heard(at: at(.seconds(9)))
        #expect(watchdog.deadline == at(.seconds(11)))
        let failure = watchdog.failure(at: at(.seconds(11)), subject: "$JS.API.CONSUMER.MSG.NEXT.S.C")
        #expect(failure?.code == .timeout)
        #expect(failure?.message.contains("$JS.API.CONSUMER.MSG.NEXT.S.C") == true)
    }
}
