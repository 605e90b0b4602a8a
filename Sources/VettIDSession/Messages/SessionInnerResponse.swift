// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore
public import VettIDCrypto

// What a response envelope carries.

/// The inner message of a response envelope (compact UTF-8 JSON, members in this order):
///
/// ```json
/// {"id":"0b9c7e52-6a1f-4d3e-9f27-51c2a8e4b6d1","ok":true,"result":{"hello":"vault"}}
/// {"id":"0b9c7e52-6a1f-4d3e-9f27-51c2a8e4b6d1","ok":false,"error":{"code":"unknown_handler","message":"…"}}
/// {"id":null,"ok":false,"error":{"code":"malformed_message","message":"…"}}
/// ```
///
/// `id` is the request's; it is `null` only in a failure to a request whose id could not be read. Decoding is
/// strict: exactly these members, with these types (`malformed_message` otherwise).
public enum SessionInnerResponse: Sendable, Hashable {
    /// The handler's result.
    case success(id: String, result: JSONValue)
    /// Why the request failed; `id` is nil when the request's id could not be read.
    case failure(id: String?, error: SessionHandlerError)

    /// The id of the request this answers.
    public var id: String? {
        switch self {
        case .success(let id, _): id
        case .failure(let id, _): id
        }
    }

    /// Decodes an inner response strictly.
    /// - Throws: `malformed_message`.
    public init(decoding bytes: [UInt8]) throws(SessionError) {
        guard let json = JSONValue.parse(bytes), let members = json.objectMembers, members.count == 3,
            let id = json["id"], let ok = json["ok"]
        else { throw Self.malformed() }
        switch (id, ok) {
        case (.string(let id), .bool(true)):
            guard let result = json["result"] else { throw Self.malformed() }
            self = .success(id: id, result: result)
        case (.string, .bool(false)), (.null, .bool(false)):
            guard let error = json["error"], error.objectMembers?.count == 2, let code = error["code"]?.stringValue,
                !code.isEmpty, let message = error["message"]?.stringValue
            else { throw Self.malformed() }
            self = .failure(id: id.stringValue, error: SessionHandlerError(.init(rawValue: code), message))
        default:
            throw Self.malformed()
        }
    }

    /// The compact JSON bytes.
    public var bytes: [UInt8] {
        switch self {
        case .success(let id, let result):
            return JSONValue.object([("id", .string(id)), ("ok", .bool(true)), ("result", result)]).serialized()
        case .failure(let id, let error):
            let failure = JSONValue.object([
                ("code", .string(error.code.rawValue)), ("message", .string(error.message)),
            ])
            return JSONValue.object([
                ("id", id.map(JSONValue.string) ?? .null), ("ok", .bool(false)), ("error", failure),
            ])
            .serialized()
        }
    }

    private static func malformed() -> SessionError {
        SessionError(
            .malformedMessage, "a response is {\"id\",\"ok\":true,\"result\"} or {\"id\",\"ok\":false,\"error\"}")
    }
}
