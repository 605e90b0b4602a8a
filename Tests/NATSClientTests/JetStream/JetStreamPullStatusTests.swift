// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import NIOCore
import Testing

@testable import NATSClient

/// Statuses on a pull's reply subject (ADR-13, ADR-37; the texts are nats-server 2.9.10's), ack subjects and ack
/// payloads.
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
    }

    @Test(arguments: [
        "_INBOX.abc", "$JS.ACK.P.D.1.1.1", "$JS.ACK.P.D.x.1.1.1.0", "$JS.API.P.D.1.1.1.1.0",
        "$JS.ACK.P.D.1.1.1.1.0.extra",
        "$JS.ACK.P.D.-1.1.1.1.0",
    ])
    func otherSubjectsAreNotAckSubjects(subject: String) {
        #expect(JetStreamMessageMetadata(ackSubject: subject) == nil)
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

    @Test func theFetchClockTicksOftenEnoughForItsHeartbeat() {
        #expect(JetStreamFetch.tickInterval(idleHeartbeat: nil, answerWithin: .seconds(31)) == .milliseconds(100))
        #expect(
            JetStreamFetch.tickInterval(idleHeartbeat: .milliseconds(200), answerWithin: .seconds(5))
                == .milliseconds(50))
        #expect(
            JetStreamFetch.tickInterval(idleHeartbeat: .milliseconds(4), answerWithin: .seconds(5)) == .milliseconds(5))
    }
}
