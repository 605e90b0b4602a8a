// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// What the vault answers on OwnerSpace.{guid}.forApp.{type}.response or on the request's reply subject.

public import VettIDCore
public import VettIDCrypto

/// A handler the vault offers, as listed in its event types.
public struct VaultEventType: Sendable, Hashable {
    /// The id an execute request names.
    public let handlerID: String
    /// What the handler does, for people.
    public let description: String
    /// The request's JSON members, for people; `nil` when the vault did not say.
    public let request: String?
    /// The result's JSON members, for people; `nil` when the vault did not say.
    public let result: String?
    /// Whether the vault runs the handler only for a sealed request.
    public let sealedOnly: Bool

    public init(
        handlerID: String, description: String, request: String? = nil, result: String? = nil,
        sealedOnly: Bool = false
    ) {
        self.handlerID = handlerID
        self.description = description
        self.request = request
        self.result = result
        self.sealedOnly = sealedOnly
    }

    /// The catalogue entry's JSON form.
    var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("handler_id", .string(handlerID)), ("description", .string(description)),
        ]
        if let request { members.append(("request", .string(request))) }
        if let result { members.append(("result", .string(result))) }
        members.append(("sealed_only", .bool(sealedOnly)))
        return .object(members)
    }

    /// Reads a catalogue entry; `nil` without a string `handler_id`.
    init?(json item: JSONValue) {
        guard let id = item["handler_id"]?.stringValue else { return nil }
        var sealedOnly = false
        if case .bool(let value)? = item["sealed_only"] { sealedOnly = value }
        self.init(
            handlerID: id, description: item["description"]?.stringValue ?? "", request: item["request"]?.stringValue,
            result: item["result"]?.stringValue, sealedOnly: sealedOnly)
    }
}

/// The vault's answer to a status request.
public struct VaultWorkerStatus: Sendable, Hashable {
    /// The member's vault state as the server derives it (`active`, `enrolled`, `pending`, …).
    public let vaultStatus: String
    /// The member's GUID.
    public let userGUID: String
    /// Unused transaction keys of the member's newest credential, if it has one.
    public let transactionKeysRemaining: Int?
    /// Which worker instance answered.
    public let workerID: String
    /// The handler ids the vault offers.
    public let handlers: [String]

    public init(
        vaultStatus: String, userGUID: String, transactionKeysRemaining: Int?, workerID: String, handlers: [String]
    ) {
        self.vaultStatus = vaultStatus
        self.userGUID = userGUID
        self.transactionKeysRemaining = transactionKeysRemaining
        self.workerID = workerID
        self.handlers = handlers
    }
}

/// An answer from the vault.
///
/// Wire form (JSON object; `request_id` echoes the request's `id`, `timestamp` is Unix milliseconds):
/// ```json
/// {"request_id":"6A0…","type":"execute","success":true,"handler_id":"echo","result":{…},"timestamp":…}
/// {"request_id":"6A0…","type":"execute","success":false,"handler_id":"nope","error":{"code":"unknown_handler","message":"…"},"timestamp":…}
/// {"request_id":"6A0…","type":"status","success":true,"status":{"vault_status":"active",…},"timestamp":…}
/// {"request_id":"6A0…","type":"eventTypes","success":true,"event_types":[{"handler_id":"echo","description":"…"}],"timestamp":…}
/// {"request_id":null,"type":"error","success":false,"error":{"code":"malformed_message","message":"…"},"timestamp":…}
/// ```
public enum VaultResponse: Sendable, Hashable {
    /// A handler's result, or why it failed.
    case handlerResult(
        requestID: String, handlerID: String, result: Result<JSONValue, VaultMessageError>, timestamp: Int64)
    /// The vault's status.
    case statusResponse(requestID: String, status: VaultWorkerStatus, timestamp: Int64)
    /// The handler catalogue.
    case eventTypes(requestID: String?, types: [VaultEventType], timestamp: Int64)
    /// A request the vault could not read or could not answer; `requestID` is set when the body had an id.
    case error(requestID: String?, VaultMessageError, timestamp: Int64)

    /// The id of the request this answers, if known.
    public var requestID: String? {
        switch self {
        case .handlerResult(let id, _, _, _), .statusResponse(let id, _, _): id
        case .eventTypes(let id, _, _), .error(let id, _, _): id
        }
    }

    /// Whether the request succeeded.
    public var isSuccess: Bool {
        switch self {
        case .handlerResult(_, _, let result, _): if case .success = result { true } else { false }
        case .statusResponse, .eventTypes: true
        case .error: false
        }
    }

    /// The wire `type`.
    public var typeName: String {
        switch self {
        case .handlerResult: VaultMessageType.execute.rawValue
        case .statusResponse: VaultMessageType.status.rawValue
        case .eventTypes: VaultMessageType.eventTypes.rawValue
        case .error: "error"
        }
    }

    /// The compact JSON bytes to publish.
    public func encoded() -> [UInt8] {
        var members: [(String, JSONValue)] = [
            ("request_id", requestID.map(JSONValue.string) ?? .null), ("type", .string(typeName)),
            ("success", .bool(isSuccess)),
        ]
        let timestamp: Int64
        switch self {
        case .handlerResult(_, let handlerID, let result, let time):
            members.append(("handler_id", .string(handlerID)))
            switch result {
            case .success(let value): members.append(("result", value))
            case .failure(let error): members.append(("error", Self.encode(error)))
            }
            timestamp = time
        case .statusResponse(_, let status, let time):
            var fields: [(String, JSONValue)] = [
                ("vault_status", .string(status.vaultStatus)), ("user_guid", .string(status.userGUID)),
            ]
            if let remaining = status.transactionKeysRemaining {
                fields.append(("transaction_keys_remaining", .integer(Int64(remaining))))
            }
            fields += [
                ("worker_id", .string(status.workerID)), ("handlers", .array(status.handlers.map(JSONValue.string))),
            ]
            members.append(("status", .object(fields)))
            timestamp = time
        case .eventTypes(_, let types, let time):
            members.append(
                (
                    "event_types",
                    .array(
                        types.map(\.json))
                ))
            timestamp = time
        case .error(_, let error, let time):
            members.append(("error", Self.encode(error)))
            timestamp = time
        }
        members.append(("timestamp", .integer(timestamp)))
        return JSONValue.object(members).serialized()
    }

    /// Parses an answer (strict JSON, depth at most 32).
    public static func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes) throws(VaultMessageError) -> VaultResponse {
        guard let json = JSONValue.parse(bytes), case .object = json else {
            throw VaultMessageError(.malformedJSON, "the response is not a JSON object")
        }
        let requestID = json["request_id"]?.stringValue
        let timestamp = json["timestamp"]?.int64Value ?? 0
        guard let typeName = json["type"]?.stringValue else {
            throw VaultMessageError(.missingField, "type must be a string")
        }
        func error() throws(VaultMessageError) -> VaultMessageError {
            guard let code = json["error"]?["code"]?.stringValue else {
                throw VaultMessageError(.missingField, "a failed response carries error.code")
            }
            return VaultMessageError(.init(rawValue: code), json["error"]?["message"]?.stringValue ?? "")
        }
        func required(_ id: String?) throws(VaultMessageError) -> String {
            guard let id else { throw VaultMessageError(.missingField, "request_id must be a string") }
            return id
        }
        switch typeName {
        case VaultMessageType.execute.rawValue:
            guard let handlerID = json["handler_id"]?.stringValue else {
                throw VaultMessageError(.missingField, "handler_id must be a string")
            }
            let success = json["success"] == .bool(true)
            let result: Result<JSONValue, VaultMessageError> =
                success ? .success(json["result"] ?? .null) : .failure(try error())
            return .handlerResult(
                requestID: try required(requestID), handlerID: handlerID, result: result, timestamp: timestamp)
        case VaultMessageType.status.rawValue:
            guard let status = json["status"], let vaultStatus = status["vault_status"]?.stringValue,
                let userGUID = status["user_guid"]?.stringValue, let workerID = status["worker_id"]?.stringValue,
                case .array(let handlers)? = status["handlers"]
            else {
                throw VaultMessageError(.missingField, "status must carry vault_status, user_guid, worker_id, handlers")
            }
            return .statusResponse(
                requestID: try required(requestID),
                status: VaultWorkerStatus(
                    vaultStatus: vaultStatus, userGUID: userGUID,
                    transactionKeysRemaining: status["transaction_keys_remaining"]?.int64Value.map { Int($0) },
                    workerID: workerID, handlers: handlers.compactMap(\.stringValue)),
                timestamp: timestamp)
        case VaultMessageType.eventTypes.rawValue:
            guard case .array(let items)? = json["event_types"] else {
                throw VaultMessageError(.missingField, "event_types must be an array")
            }
            let types = items.compactMap(VaultEventType.init(json:))
            return .eventTypes(requestID: requestID, types: types, timestamp: timestamp)
        case "error":
            return .error(requestID: requestID, try error(), timestamp: timestamp)
        default:
            throw VaultMessageError(.unknownType, "unknown response type '\(typeName.prefix(64))'")
        }
    }

    private static func encode(_ error: VaultMessageError) -> JSONValue {
        .object([("code", .string(error.code.rawValue)), ("message", .string(error.message))])
    }
}
