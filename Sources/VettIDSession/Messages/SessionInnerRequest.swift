// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore
public import VettIDCrypto

// What a request envelope carries: nothing of it travels in the clear.

/// The inner message of a request envelope (compact UTF-8 JSON, members in this order):
///
/// ```json
/// {"id":"0b9c7e52-6a1f-4d3e-9f27-51c2a8e4b6d1","handler":"echo","body":{"hello":"vault"},"exp":1767225630000}
/// ```
///
/// `id` and `handler` are strings of 1 to 128 bytes, `body` is any JSON value (`null` when the handler takes none),
/// `exp` is an integer, Unix milliseconds, after which the vault refuses the request (`request_expired`).
/// Decoding is strict: exactly these four members, with these types (`malformed_message` otherwise).
public struct SessionInnerRequest: Sendable, Hashable {
    /// The request id the response echoes.
    public let id: String
    /// The handler to run.
    public let handler: String
    /// The handler's input.
    public let body: JSONValue
    /// `exp`: Unix milliseconds after which the vault refuses the request.
    public let expiresAtMilliseconds: Int64

    /// A request; `id` and `handler` must be 1 to 128 bytes (`malformed_message`).
    public init(id: String, handler: String, body: JSONValue, expiresAtMilliseconds: Int64) throws(SessionError) {
        guard Self.isValidName(id), Self.isValidName(handler) else {
            throw SessionError(.malformedMessage, "id and handler must be strings of 1 to 128 bytes")
        }
        self.id = id
        self.handler = handler
        self.body = body
        self.expiresAtMilliseconds = expiresAtMilliseconds
    }

    /// Decodes an inner request strictly.
    /// - Throws: `malformed_message`.
    public init(decoding bytes: [UInt8]) throws(SessionError) {
        guard let json = JSONValue.parse(bytes), let members = json.objectMembers else {
            throw SessionError(.malformedMessage, "the request is not a JSON object")
        }
        guard members.count == 4, let id = json["id"]?.stringValue, let handler = json["handler"]?.stringValue,
            let body = json["body"], let exp = json["exp"]?.int64Value
        else {
            throw SessionError(
                .malformedMessage, "a request has exactly id (string), handler (string), body and exp (integer)")
        }
        try self.init(id: id, handler: handler, body: body, expiresAtMilliseconds: exp)
    }

    /// The compact JSON bytes.
    public var bytes: [UInt8] {
        JSONValue.object([
            ("id", .string(id)), ("handler", .string(handler)), ("body", body),
            ("exp", .integer(expiresAtMilliseconds)),
        ]).serialized()
    }

    /// The `id` of an inner message that may not be a valid request, so a sealed refusal can name it.
    public static func requestID(in bytes: [UInt8]) -> String? {
        guard let id = JSONValue.parse(bytes)?["id"]?.stringValue, isValidName(id) else { return nil }
        return id
    }

    private static func isValidName(_ text: String) -> Bool { (1...128).contains(text.utf8.count) }
}
