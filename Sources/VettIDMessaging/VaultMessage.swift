// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// What the app sends to its vault on OwnerSpace.{guid}.forVault.{type}.

public import VettIDCore
public import VettIDCrypto

/// The kinds of request an app sends; the raw value is the last subject token and the body's `type`.
public enum VaultMessageType: String, Sendable, Hashable, CaseIterable {
    /// Run a handler by id with a JSON payload.
    case execute
    /// Ask for the vault's status.
    case status
    /// Ask for the handler catalogue (also published on `OwnerSpace.{guid}.eventTypes`).
    case eventTypes
}

/// A request from the app to its vault.
///
/// Wire form (JSON object, parsed strictly: no duplicate names, depth at most 32):
/// ```json
/// {"id":"6A0…","type":"execute","handler_id":"echo","payload":{"any":"json"},"timestamp":1795000000000}
/// {"id":"6A0…","type":"status","timestamp":1795000000000}
/// {"id":"6A0…","type":"eventTypes","timestamp":1795000000000}
/// ```
/// `timestamp` is Unix milliseconds. It is published to ``VaultNamespace/forVault(_:)`` of its type.
public enum VaultMessage: Sendable, Hashable {
    /// Run `handlerID` with `payload`.
    case executeHandler(id: String, handlerID: String, payload: JSONValue, timestamp: Int64)
    /// Ask for the vault's status.
    case statusRequest(id: String, timestamp: Int64)
    /// Ask for the handler catalogue.
    case eventTypesRequest(id: String, timestamp: Int64)

    /// The request id the response echoes as `request_id`.
    public var id: String {
        switch self {
        case .executeHandler(let id, _, _, _), .statusRequest(let id, _), .eventTypesRequest(let id, _): id
        }
    }

    /// The kind of request.
    public var type: VaultMessageType {
        switch self {
        case .executeHandler: .execute
        case .statusRequest: .status
        case .eventTypesRequest: .eventTypes
        }
    }

    /// The compact JSON bytes to publish.
    public func encoded() -> [UInt8] {
        var members: [(String, JSONValue)] = [("id", .string(id)), ("type", .string(type.rawValue))]
        switch self {
        case .executeHandler(_, let handlerID, let payload, let timestamp):
            members += [("handler_id", .string(handlerID)), ("payload", payload), ("timestamp", .integer(timestamp))]
        case .statusRequest(_, let timestamp), .eventTypesRequest(_, let timestamp):
            members.append(("timestamp", .integer(timestamp)))
        }
        return JSONValue.object(members).serialized()
    }

    /// Parses a request strictly: every member of its type is required with its JSON type (`payload` may be
    /// `null`), and a member the type does not have is refused (`invalid_message`). When the body at least
    /// carries an `id`, the error still lets the receiver answer that request: see ``VaultMessage/requestID(in:)``.
    public static func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes) throws(VaultMessageError) -> VaultMessage {
        guard let json = JSONValue.parse(bytes), case .object = json else {
            throw VaultMessageError(.malformedJSON, "the message is not a JSON object")
        }
        guard let id = json["id"]?.stringValue, (1...128).contains(id.utf8.count) else {
            throw VaultMessageError(.missingField, "id must be a string of 1 to 128 bytes")
        }
        guard let typeName = json["type"]?.stringValue else {
            throw VaultMessageError(.missingField, "type must be a string")
        }
        guard let type = VaultMessageType(rawValue: typeName) else {
            throw VaultMessageError(.unknownType, "unknown message type '\(typeName.prefix(64))'")
        }
        guard let timestamp = json["timestamp"]?.int64Value else {
            throw VaultMessageError(.missingField, "timestamp must be an integer (Unix milliseconds)")
        }
        if let unknown = json.objectMembers?.first(where: { !isMember($0.0, of: type) }) {
            throw VaultMessageError(
                .missingField, "member '\(unknown.0.prefix(64))' is not part of a \(typeName) request")
        }
        switch type {
        case .execute:
            guard let handlerID = json["handler_id"]?.stringValue, (1...128).contains(handlerID.utf8.count) else {
                throw VaultMessageError(.missingField, "handler_id must be a string of 1 to 128 bytes")
            }
            guard let payload = json["payload"] else {
                throw VaultMessageError(.missingField, "payload is required (null when the handler takes none)")
            }
            return .executeHandler(id: id, handlerID: handlerID, payload: payload, timestamp: timestamp)
        case .status:
            return .statusRequest(id: id, timestamp: timestamp)
        case .eventTypes:
            return .eventTypesRequest(id: id, timestamp: timestamp)
        }
    }

    /// Whether `name` is a member of a `type` request (a `switch`, not a `Set` built for every message).
    private static func isMember(_ name: String, of type: VaultMessageType) -> Bool {
        switch name {
        case "id", "type", "timestamp": true
        case "handler_id", "payload": type == .execute
        default: false
        }
    }

    /// The `id` of a body that may not be a valid request, so an error response can name it.
    public static func requestID<Bytes: Collection<UInt8>>(in bytes: Bytes) -> String? {
        guard let id = JSONValue.parse(bytes)?["id"]?.stringValue, (1...128).contains(id.utf8.count) else { return nil }
        return id
    }
}
