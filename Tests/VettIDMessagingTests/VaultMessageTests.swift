// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Testing
import VettIDCore
import VettIDCrypto
import VettIDMessaging

@Suite struct VaultMessageTests {
    @Test func requestsRoundTrip() throws {
        let messages: [VaultMessage] = [
            .executeHandler(
                id: "r1", handlerID: "echo", payload: .object([("n", .integer(7))]), timestamp: 1_795_000_000_000),
            .statusRequest(id: "r2", timestamp: 1),
            .eventTypesRequest(id: "r3", timestamp: 2),
        ]
        for message in messages {
            #expect(try VaultMessage.decode(message.encoded()) == message)
        }
    }

    @Test func responsesRoundTrip() throws {
        let responses: [VaultResponse] = [
            .handlerResult(requestID: "r1", handlerID: "echo", result: .success(.string("hi")), timestamp: 5),
            .handlerResult(
                requestID: "r1", handlerID: "nope",
                result: .failure(VaultMessageError(.unknownHandler, "no such handler")),
                timestamp: 5),
            .statusResponse(
                requestID: "r2",
                status: VaultWorkerStatus(
                    vaultStatus: "active", userGUID: "g", transactionKeysRemaining: 19, workerID: "w1",
                    handlers: ["echo"]),
                timestamp: 6),
            .eventTypes(
                requestID: nil, types: [VaultEventType(handlerID: "echo", description: "Echoes")], timestamp: 7),
            .error(requestID: nil, VaultMessageError(.malformedJSON, "not JSON"), timestamp: 8),
        ]
        for response in responses {
            #expect(try VaultResponse.decode(response.encoded()) == response)
        }
        #expect(!responses[1].isSuccess)
        #expect(responses[0].isSuccess)
    }

    @Test func malformedRequestsGetTypedErrors() {
        func code(_ text: String) -> VaultMessageError.Code? {
            do {
                _ = try VaultMessage.decode(Array(text.utf8))
                return nil
            } catch {
                return error.code
            }
        }
        #expect(code("not json") == .malformedJSON)
        #expect(code("[1,2]") == .malformedJSON)
        #expect(code(#"{"id":"a","id":"b","type":"status"}"#) == .malformedJSON)
        #expect(code(#"{"type":"status"}"#) == .missingField)
        #expect(code(#"{"id":"a","type":"launch"}"#) == .unknownType)
        #expect(code(#"{"id":"a","type":"execute"}"#) == .missingField)
        // Strict: timestamp required and an integer, payload required for execute, no unknown members.
        #expect(code(#"{"id":"a","type":"status","timestamp":1}"#) == nil)
        #expect(code(#"{"id":"a","type":"status"}"#) == .missingField)
        #expect(code(#"{"id":"a","type":"status","timestamp":"1"}"#) == .missingField)
        #expect(code(#"{"id":"a","type":"status","timestamp":1.5}"#) == .missingField)
        #expect(code(#"{"id":"a","type":"status","timestamp":1,"extra":true}"#) == .missingField)
        #expect(code(#"{"id":"a","type":"eventTypes","timestamp":1,"payload":null}"#) == .missingField)
        #expect(code(#"{"id":"a","type":"execute","handler_id":"echo","payload":null,"timestamp":1}"#) == nil)
        #expect(code(#"{"id":"a","type":"execute","handler_id":"echo","timestamp":1}"#) == .missingField)
        #expect(
            code(#"{"id":"a","type":"execute","handler_id":"echo","payload":{},"timestamp":1,"admin":1}"#)
                == .missingField)
        #expect(code(String(repeating: "[", count: 100)) == .malformedJSON)
        #expect(VaultMessage.requestID(in: Array(#"{"id":"a","type":"launch"}"#.utf8)) == "a")
        #expect(VaultMessage.requestID(in: Array("garbage".utf8)) == nil)
    }
}
