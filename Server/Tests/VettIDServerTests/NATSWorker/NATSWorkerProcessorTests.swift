// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import InMemoryLogging
import Logging
import NIOConcurrencyHelpers
import Testing
import VettIDCore
import VettIDCrypto
import VettIDMessaging
import VettIDTestSupport

@testable import VettIDServer

/// The vault worker's request rules, without NATS: subjects, reply subjects, error codes, handlers, status and
/// event types.
@Suite struct NATSWorkerProcessorTests {
    typealias Support = WorkerTestSupport

    /// Processes one request and returns the outcome and the log (every record, at trace level).
    func run(
        _ processor: VaultRequestProcessor, subject: String, replyTo: String? = nil, body: [UInt8]
    ) async -> (VaultRequestProcessor.Outcome, LogCapture) {
        let log = LogCapture()
        let outcome = await processor.process(
            subject: subject, replyTo: replyTo, payload: body, logger: log.logger(label: "worker-test"))
        return (outcome, log)
    }

    /// The single answer of `outcome`, decoded from the published bytes.
    func single(_ outcome: VaultRequestProcessor.Outcome) throws -> (subject: String, response: VaultResponse) {
        try #require(outcome.publications.count == 1)
        let publication = outcome.publications[0]
        let decoded = try VaultResponse.decode(publication.payload)
        #expect(decoded == outcome.response)
        return (publication.subject, decoded)
    }

    func expectError(
        _ response: VaultResponse, _ code: VaultMessageError.Code, requestID: String?,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard case .error(let id, let error, let timestamp) = response else {
            Issue.record("expected an error response, got \(response)", sourceLocation: sourceLocation)
            return
        }
        #expect(error.code == code, sourceLocation: sourceLocation)
        #expect(id == requestID, sourceLocation: sourceLocation)
        #expect(timestamp == Support.timestamp, sourceLocation: sourceLocation)
    }

    /// Executes `handlerID` for a fresh member and returns the handler's error, which must arrive as a failed
    /// handler result of that request and handler, with the outcome and the log.
    func handlerFailure(
        _ handlerID: String, _ payload: JSONValue = .null, id: String = "req-1",
        processor: VaultRequestProcessor? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> (error: VaultMessageError, outcome: VaultRequestProcessor.Outcome, log: LogCapture) {
        let namespace = try Support.namespace()
        let (outcome, log) = await run(
            try processor ?? Support.processor(), subject: namespace.forVault(.execute),
            body: Support.execute(handlerID, payload, id: id))
        let response = try single(outcome).response
        var failure: VaultMessageError? {
            guard case .handlerResult(id, handlerID, .failure(let error), Support.timestamp) = response else {
                return nil
            }
            return error
        }
        let error = try #require(
            failure, "expected a failed \(handlerID) result for \(id), got \(response)", sourceLocation: sourceLocation)
        return (error, outcome, log)
    }

    // MARK: Answer subjects

    @Test func executeAnswersOnTheReplySubjectInsideTheMembersInbox() async throws {
        let namespace = try Support.namespace()
        let reply = "\(namespace.appInboxPrefix).Xy12.7"
        let payload = JSONValue.object([("hello", .string("world")), ("n", .integer(3))])
        let (outcome, _) = await run(
            try Support.processor(), subject: namespace.forVault(.execute), replyTo: reply,
            body: Support.execute("echo", payload))
        let (subject, response) = try single(outcome)
        #expect(subject == reply)
        #expect(
            response
                == .handlerResult(
                    requestID: "req-1", handlerID: "echo", result: .success(payload), timestamp: Support.timestamp))
    }

    @Test func withoutAReplySubjectTheAnswerGoesToTheResponseSubject() async throws {
        let namespace = try Support.namespace()
        let (outcome, log) = await run(
            try Support.processor(), subject: namespace.forVault(.status), body: Support.status())
        let (subject, response) = try single(outcome)
        #expect(subject == namespace.response(to: "status"))
        #expect(subject == "OwnerSpace.\(namespace.userGUID).forApp.status.response")
        #expect(response.isSuccess)
        #expect(!log.lines.contains { $0.hasPrefix("warning") })
    }

    @Test(arguments: [
        "OwnerSpace.00000000-0000-4000-8000-000000000000.forApp.inbox.steal.1",  // another member's inbox
        "OwnerSpace.00000000-0000-4000-8000-000000000000.forApp.status.response",  // another member's responses
        "_INBOX.abc.1",  // the general inbox nobody is granted
        "OwnerSpace.MEMBER.forApp.>",  // wildcards
        "OwnerSpace.MEMBER.forApp.*",
        "OwnerSpace.MEMBER.forApp.inbox.*",
        "OwnerSpace.MEMBER.forApp.",  // empty tokens
        "OwnerSpace.MEMBER.forApp..x",
        "OwnerSpace.MEMBER.forVault.execute",  // the member's own request subject (a loop)
        "OwnerSpace.MEMBER.eventTypes",
        "MessageSpace.MEMBER.forOwner.x",
        "",
    ])
    func aReplySubjectOutsideTheMembersForAppSpaceIsNeverPublishedTo(reply: String) async throws {
        let namespace = try Support.namespace()
        let replyTo = reply.replacingOccurrences(of: "MEMBER", with: namespace.userGUID)
        let (outcome, log) = await run(
            try Support.processor(), subject: namespace.forVault(.execute), replyTo: replyTo,
            body: Support.execute("whoami", .null))
        let (subject, response) = try single(outcome)
        #expect(subject == namespace.response(to: "execute"), "answered on the sender's own response subject")
        #expect(outcome.publications.allSatisfy { $0.subject != replyTo })
        guard case .handlerResult(_, _, .success(let result), _) = response else {
            Issue.record("expected a handler result, got \(response)")
            return
        }
        #expect(result["user_guid"] == .string(namespace.userGUID), "the handler ran for the subject's member")
        #expect(log.lines.contains { $0.hasPrefix("warning") && $0.contains("reply subject") })
    }

    @Test(arguments: [
        "greeting.hello", "OwnerSpace", "OwnerSpace.abc", "OwnerSpace.abc.forVault", "OwnerSpace.abc.forApp.status",
        "OwnerSpace.a_b.forVault.status", "MessageSpace.abc.forVault.status", "OwnerSpace..forVault.status",
        "OwnerSpace.abc.forVault.",
    ])
    func aSubjectThatIsNotARequestSubjectIsDroppedAndLogged(subject: String) async throws {
        let (outcome, log) = await run(
            try Support.processor(), subject: subject, replyTo: "_INBOX.x.1", body: Support.status())
        #expect(outcome.response == nil)
        #expect(outcome.publications.isEmpty)
        #expect(log.lines.contains { $0.hasPrefix("warning") && $0.contains("not a vault request subject") })
    }

    // MARK: Refused bodies

    @Test func malformedJSONIsAnsweredWithMalformedMessage() async throws {
        let namespace = try Support.namespace()
        let processor = try Support.processor()
        for body in [
            "{\"id\":\"r1\",", "not json", "[1,2,3]", "\"text\"", "{\"id\":\"a\",\"id\":\"b\",\"type\":\"status\"}",
        ] {
            let (outcome, _) = await run(processor, subject: namespace.forVault(.status), body: Array(body.utf8))
            let (subject, response) = try single(outcome)
            #expect(subject == namespace.response(to: "status"))
            expectError(response, .malformedJSON, requestID: nil)
            #expect(VaultMessageError.Code.malformedJSON.rawValue == "malformed_message")
        }
    }

    @Test func anObjectWithoutTheRequiredMembersIsAnsweredWithInvalidMessageAndItsID() async throws {
        let namespace = try Support.namespace()
        let processor = try Support.processor()
        let cases: [(String, String?)] = [
            (#"{"id":"r1"}"#, "r1"),  // no type
            (#"{"id":"r2","type":"execute","payload":{}}"#, "r2"),  // no handler_id
            (#"{"type":"status"}"#, nil),  // no id
            (#"{"id":"","type":"status"}"#, nil),  // empty id
        ]
        for (body, id) in cases {
            let subject = body.contains("execute") ? namespace.forVault(.execute) : namespace.forVault(.status)
            let (outcome, _) = await run(processor, subject: subject, body: Array(body.utf8))
            expectError(try single(outcome).response, .missingField, requestID: id)
        }
    }

    @Test func anUnknownTypeIsAnsweredWithUnknownMessageType() async throws {
        let namespace = try Support.namespace()
        let (outcome, _) = await run(
            try Support.processor(), subject: "\(namespace.ownerSpace).forVault.reboot",
            body: Array(#"{"id":"r9","type":"reboot"}"#.utf8))
        let (subject, response) = try single(outcome)
        #expect(subject == namespace.response(to: "reboot"))
        expectError(response, .unknownType, requestID: "r9")
    }

    @Test func aBodyWhoseTypeIsNotTheSubjectsIsATypeMismatch() async throws {
        let namespace = try Support.namespace()
        let processor = try Support.processor()
        // A status body on the execute subject, an execute body on the status subject, and a known body on a
        // subject with a longer type.
        let cases: [(String, [UInt8])] = [
            (namespace.forVault(.execute), Support.status(id: "m1")),
            (namespace.forVault(.status), Support.execute("echo", .null, id: "m2")),
            ("\(namespace.ownerSpace).forVault.status.extra", Support.status(id: "m3")),
        ]
        for (subject, body) in cases {
            let (outcome, _) = await run(processor, subject: subject, body: body)
            let id = try #require(VaultMessage.requestID(in: body))
            expectError(try single(outcome).response, .typeMismatch, requestID: id)
        }
    }

    @Test func anOversizedBodyIsRefusedUnparsedAndTheLimitItselfIsAccepted() async throws {
        let namespace = try Support.namespace()
        let processor = try Support.processor(maxPayloadBytes: 256)
        let padding = String(repeating: "a", count: 300)
        let (big, _) = await run(
            processor, subject: namespace.forVault(.execute), body: Support.execute("echo", .string(padding), id: "big")
        )
        expectError(try single(big).response, .payloadTooLarge, requestID: nil)

        var body = Support.execute("echo", .string(""), id: "fits")
        body = Support.execute("echo", .string(String(repeating: "b", count: 256 - body.count)), id: "fits")
        #expect(body.count == 256)
        let (fits, _) = await run(processor, subject: namespace.forVault(.execute), body: body)
        #expect(try single(fits).response.isSuccess)
    }

    // MARK: Execute

    @Test func anUnknownHandlerIsAFailedHandlerResult() async throws {
        #expect(try await handlerFailure("nope", id: "u1").error.code == .unknownHandler)
    }

    @Test func aThrowingHandlerIsAnsweredWithHandlerFailedAndASafeMessage() async throws {
        let (error, outcome, log) = try await handlerFailure("explode", id: "x1")
        #expect(error.code == .handlerFailed)
        let published = String(decoding: outcome.publications[0].payload, as: UTF8.self)
        #expect(!published.contains("hunter2"), "the handler's error text never reaches the app")
        #expect(!log.text.contains("hunter2"), "nor the logs")
        #expect(log.lines.contains { $0.hasPrefix("error") && $0.contains("handler failed") })
    }

    @Test func logRecordsCarryTheMemberTypeRequestAndHandler() async throws {
        let member = try Support.namespace()
        let (_, log) = await run(
            try Support.processor(), subject: member.forVault(.execute),
            body: Support.execute("explode", .null, id: "x2"))
        let failed = try #require(log.entries.first { $0.message.description == "handler failed" })
        #expect(failed.metadata["member"] == "\(member.userGUID)")
        #expect(failed.metadata["type"] == "execute")
        #expect(failed.metadata["request_id"] == "x2")
        #expect(failed.metadata["handler_id"] == "explode")
        #expect(failed.metadata["error"] != nil)

        let (_, handlerLog) = await run(
            try Support.processor(), subject: member.forVault(.execute), replyTo: member.appInboxPrefix + ".1",
            body: Support.execute("whoami", .null, id: "w1"))
        let own = try #require(handlerLog.entries.first { $0.message.description == "whoami answered" })
        #expect(own.metadata["member"] == "\(member.userGUID)", "a handler's own logger carries the request")
        #expect(own.metadata["request_id"] == "w1")
        #expect(own.metadata["handler_id"] == "whoami")

        let (_, refusedLog) = await run(
            try Support.processor(), subject: member.forVault(.status), body: Support.execute("echo", .null, id: "m1"))
        let refused = try #require(refusedLog.entries.first { $0.message.description == "refused a vault request" })
        #expect(refused.metadata["member"] == "\(member.userGUID)")
        #expect(refused.metadata["type"] == "status")
        #expect(refused.metadata["request_id"] == "m1")
        #expect(refused.metadata["code"] == "type_mismatch")
    }

    @Test func aHandlerRefusalKeepsItsCodeAndMessage() async throws {
        let error = try await handlerFailure("refuse", id: "f1").error
        #expect(error == VaultMessageError(.init(rawValue: "not_allowed"), "this member may not do that"))
    }

    @Test func echoRefusesPayloadsOverItsLimit() async throws {
        let error = try await handlerFailure("echo", .string(String(repeating: "z", count: 2000)), id: "e1").error
        #expect(error.code == .payloadTooLarge)
    }

    /// `vault.info` is sealed-only: a plaintext request is refused before the handler runs (the store is not asked).
    @Test func aPlaintextRequestForASealedOnlyHandlerIsRefusedUnrun() async throws {
        let asked = GUIDRecorder()
        let processor = try Support.processor(status: { guid in
            asked.record(guid)
            return ("enrolled", 5)
        })
        let (error, _, _) = try await handlerFailure("vault.info", processor: processor)
        #expect(error.code == .sealedSessionRequired)
        #expect(asked.values.isEmpty)
    }

    @Test func vaultInfoReportsTheMembersVault() async throws {
        let namespace = try Support.namespace()
        let asked = GUIDRecorder()
        let handler = VaultInfoHandler(status: { guid in
            asked.record(guid)
            return ("enrolled", 5)
        })
        let context = VaultHandlerContext(
            namespace: namespace, requestID: "r", deviceThumbprint: "device", logger: LogCapture().logger(label: "t"))
        let info = try await handler.handle(.null, context: context)
        #expect(asked.values == [namespace.userGUID])
        #expect(info["user_guid"] == .string(namespace.userGUID))
        #expect(info["vault_status"] == .string("enrolled"))
        #expect(info["transaction_keys_remaining"] == .integer(5))
        #expect(info["owner_space_id"] == .string(namespace.ownerSpace))
        #expect(info["message_space_id"] == .string(namespace.messageSpace))
    }

    @Test func vaultInfoWithAFailingStoreIsVaultUnavailable() async throws {
        let handler = VaultInfoHandler(status: { _ in throw WorkerTestSupport.ExplodingHandler.Secret() })
        let log = LogCapture()
        let context = VaultHandlerContext(
            namespace: try Support.namespace(), requestID: "r", deviceThumbprint: "device",
            logger: log.logger(label: "t"))
        let error = await #expect(throws: VaultMessageError.self) { try await handler.handle(.null, context: context) }
        #expect(error?.code == .unavailable)
        #expect(!log.text.contains("hunter2"))
    }

    // MARK: Status and event types

    @Test func statusReportsTheMembersVaultAndTheWorker() async throws {
        let namespace = try Support.namespace()
        let asked = GUIDRecorder()
        let processor = try Support.processor(status: { guid in
            asked.record(guid)
            return ("not_enrolled", nil)
        })
        let (outcome, _) = await run(processor, subject: namespace.forVault(.status), body: Support.status(id: "s1"))
        let expected = VaultWorkerStatus(
            vaultStatus: "not_enrolled", userGUID: namespace.userGUID, transactionKeysRemaining: nil,
            workerID: "worker-test",
            handlers: ["echo", "vault.info", "explode", "refuse", "slow", "whoami"])
        #expect(
            try single(outcome).response
                == .statusResponse(requestID: "s1", status: expected, timestamp: Support.timestamp))
        #expect(asked.values == [namespace.userGUID])
    }

    @Test func aStatusStoreFailureIsVaultUnavailable() async throws {
        let namespace = try Support.namespace()
        let processor = try Support.processor(status: { _ in throw WorkerTestSupport.ExplodingHandler.Secret() })
        let (outcome, log) = await run(processor, subject: namespace.forVault(.status), body: Support.status(id: "s2"))
        expectError(try single(outcome).response, .unavailable, requestID: "s2")
        #expect(!String(decoding: outcome.publications[0].payload, as: UTF8.self).contains("hunter2"))
        #expect(!log.text.contains("hunter2"))
    }

    @Test func eventTypesArePublishedAsTheAnswerAndOnTheMembersEventTypesSubject() async throws {
        let namespace = try Support.namespace()
        let reply = "\(namespace.appInboxPrefix).q.1"
        let (outcome, _) = await run(
            try Support.processor(), subject: namespace.forVault(.eventTypes), replyTo: reply,
            body: Support.eventTypes(id: "t1"))
        #expect(outcome.publications.map(\.subject) == [reply, namespace.eventTypes])
        #expect(outcome.publications[0].payload == outcome.publications[1].payload)
        let response = try VaultResponse.decode(outcome.publications[1].payload)
        guard case .eventTypes("t1", let types, Support.timestamp) = response else {
            Issue.record("expected event types, got \(response)")
            return
        }
        #expect(types.map(\.handlerID) == ["echo", "vault.info", "explode", "refuse", "slow", "whoami"])
        #expect(types.allSatisfy { !$0.description.isEmpty })
    }

    @Test func eventTypesWithoutAReplyGoToTheResponseSubjectAndEventTypes() async throws {
        let namespace = try Support.namespace()
        let (outcome, _) = await run(
            try Support.processor(), subject: namespace.forVault(.eventTypes), replyTo: "_INBOX.evil.1",
            body: Support.eventTypes())
        #expect(outcome.publications.map(\.subject) == [namespace.response(to: "eventTypes"), namespace.eventTypes])
    }

    // MARK: Logs

    @Test func payloadContentsAreNeverLogged() async throws {
        let namespace = try Support.namespace()
        let secret = "s3cr3t-Pa55phrase-\(UUID().uuidString)"
        let processor = try Support.processor(maxPayloadBytes: 512)
        let log = LogCapture()
        let logger = log.logger(label: "worker-test")
        let bodies: [(String, [UInt8])] = [
            (namespace.forVault(.execute), Support.execute("echo", .string(secret))),
            (namespace.forVault(.execute), Support.execute("explode", .string(secret))),
            (namespace.forVault(.execute), Support.execute("nope", .string(secret))),
            (
                namespace.forVault(.execute),
                Support.execute("echo", .string(secret + String(repeating: "x", count: 600)))
            ),
            (namespace.forVault(.status), Support.execute("echo", .string(secret))),
            (namespace.forVault(.status), Array("{\"id\":\"r\",\"type\":\"status\",\"secret\":\"\(secret)\"".utf8)),
            ("OwnerSpace.\(namespace.userGUID).forVault.\(VaultMessageType.execute.rawValue)", Array(secret.utf8)),
        ]
        for (subject, body) in bodies {
            _ = await processor.process(
                subject: subject, replyTo: "_INBOX.\(UUID().uuidString)", payload: body, logger: logger)
        }
        #expect(log.entries.count >= 6)
        #expect(!log.text.contains("s3cr3t"))
    }

    @Test func answeredRequestsAreCountedByTypeAndOutcome() async throws {
        let metrics = ServerMetrics()
        let processor = VaultRequestProcessor(
            configuration: .init(maxPayloadBytes: 4096, workerID: "worker-test"),
            registry: try Support.registry(status: Support.activeStatus), status: Support.activeStatus,
            clock: Support.fixedClock(), metrics: metrics)
        let namespace = try Support.namespace()
        let status = VaultMessage.statusRequest(id: "m1", timestamp: 1).encoded()
        _ = await run(processor, subject: namespace.forVault(.status), body: status)
        _ = await run(processor, subject: namespace.forVault(.status), body: status)
        _ = await run(
            processor, subject: namespace.forVault(.status), body: Array(#"{"id":"m2","type":"status"}"#.utf8))
        _ = await run(
            processor, subject: namespace.forVault(.execute),
            body: VaultMessage.executeHandler(id: "m3", handlerID: "nope", payload: .null, timestamp: 1).encoded())
        _ = await run(processor, subject: namespace.forVault(.status) + "x", body: status)
        let text = String(decoding: metrics.exposition(), as: UTF8.self)
        #expect(text.contains(#"vettid_nats_worker_requests_total{type="status",outcome="ok"} 2"#), "\(text)")
        #expect(text.contains(#"vettid_nats_worker_requests_total{type="status",outcome="invalid_message"} 1"#))
        #expect(text.contains(#"vettid_nats_worker_requests_total{type="execute",outcome="unknown_handler"} 1"#))
        // A subject type that is no message type is labelled `unknown` (bounded label values).
        #expect(text.contains(#"vettid_nats_worker_requests_total{type="unknown",outcome="type_mismatch"} 1"#))
    }

}

/// Collects the GUIDs a status lookup was asked for.
final class GUIDRecorder: Sendable {
    private let stored = NIOLockedValueBox<[String]>([])

    func record(_ guid: String) { stored.withLockedValue { $0.append(guid) } }
    var values: [String] { stored.withLockedValue { $0 } }
}
