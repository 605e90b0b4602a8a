// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// libFuzzer target `vault-message`: VaultMessage.decode and VaultResponse.decode on the same bytes.
//
// Invariants:
// - VaultMessage.decode succeeds exactly when the documented rules hold (docs/protocol.md §7.2, written out
//   in `expectedMessageRefusal` over JSONValue.parse), refuses with the documented code otherwise, and its
//   fields are the JSON members;
// - whatever decodes re-encodes to bytes that decode to an equal value, and encoding that value again gives
//   the same bytes (for requests and responses);
// - a decoded response echoes `request_id` and `type`, and its success flag is the body's (execute);
// - VaultMessage.requestID(in:) is the `id` member when it is a string of 1-128 bytes, else nil.

import FuzzSupport
import VettIDCrypto
import VettIDMessaging

@_cdecl("VaultMessageFuzzer_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzzOne)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzOne(UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size))
    return 0
}

func fuzzOne(_ buffer: UnsafeRawBufferPointer) {
    let input = Array(buffer)
    let json = JSONValue.parse(input)
    checkRequest(input, json)
    checkResponse(input, json)
}

private func isID(_ value: JSONValue?) -> Bool {
    guard let text = value?.stringValue else { return false }
    return (1...128).contains(text.utf8.count)
}

/// The code VaultMessage.decode must refuse with, or nil when it must succeed.
private func expectedMessageRefusal(_ json: JSONValue?) -> VaultMessageError.Code? {
    guard let json, let members = json.objectMembers else { return .malformedJSON }
    guard isID(json["id"]), let typeName = json["type"]?.stringValue else { return .missingField }
    guard let type = VaultMessageType(rawValue: typeName) else { return .unknownType }
    guard json["timestamp"]?.int64Value != nil else { return .missingField }
    let allowed: Set<String> =
        type == .execute ? ["id", "type", "handler_id", "payload", "timestamp"] : ["id", "type", "timestamp"]
    guard members.allSatisfy({ allowed.contains($0.0) }) else { return .missingField }
    if type == .execute {
        guard isID(json["handler_id"]), json["payload"] != nil else { return .missingField }
    }
    return nil
}

private func checkRequest(_ input: [UInt8], _ json: JSONValue?) {
    let expectedID = isID(json?["id"]) ? json?["id"]?.stringValue : nil
    invariant(VaultMessage.requestID(in: input) == expectedID, "requestID(in:) is not the id member")
    let expected = expectedMessageRefusal(json)
    let message: VaultMessage
    do {
        message = try VaultMessage.decode(input)
    } catch {
        invariant(
            expected == error.code, "refused with \(error.code), expected \(expected.map(\.rawValue) ?? "success")")
        return
    }
    invariant(expected == nil, "decoded although it should be refused with \(expected!)")
    guard let json else { fatalError("fuzz invariant violated: decoded unparsable JSON") }
    invariant(message.id == json["id"]?.stringValue, "id is not the member")
    invariant(message.type.rawValue == json["type"]?.stringValue, "type is not the member")
    switch message {
    case .executeHandler(_, let handlerID, let payload, let timestamp):
        invariant(
            handlerID == json["handler_id"]?.stringValue && payload == json["payload"],
            "handler_id or payload is not the member")
        invariant(timestamp == json["timestamp"]?.int64Value, "timestamp is not the member")
    case .statusRequest(_, let timestamp), .eventTypesRequest(_, let timestamp):
        invariant(timestamp == json["timestamp"]?.int64Value, "timestamp is not the member")
    }
    let encoded = message.encoded()
    guard let again = try? VaultMessage.decode(encoded) else {
        fatalError(
            "fuzz invariant violated: an encoded request does not decode: \(String(decoding: encoded, as: UTF8.self))")
    }
    invariant(again == message, "a request changed through encode and decode")
    invariant(again.encoded() == encoded, "encoding is not stable")
}

private func checkResponse(_ input: [UInt8], _ json: JSONValue?) {
    let response: VaultResponse
    do {
        response = try VaultResponse.decode(input)
    } catch {
        if json?.objectMembers == nil {
            invariant(error.code == .malformedJSON, "a non-object was refused with \(error.code)")
        }
        return
    }
    guard let json, json.objectMembers != nil else {
        fatalError("fuzz invariant violated: a response decoded from a non-object")
    }
    invariant(response.requestID == json["request_id"]?.stringValue, "requestID is not the request_id member")
    invariant(response.typeName == json["type"]?.stringValue, "typeName is not the type member")
    if case .handlerResult = response {
        invariant(response.isSuccess == (json["success"] == .bool(true)), "isSuccess is not the success member")
    }
    let encoded = response.encoded()
    guard let again = try? VaultResponse.decode(encoded) else {
        fatalError(
            "fuzz invariant violated: an encoded response does not decode: \(String(decoding: encoded, as: UTF8.self))")
    }
    invariant(again == response, "a response changed through encode and decode")
    invariant(again.encoded() == encoded, "encoding is not stable")
}
