// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore
import VettIDCrypto

// What the vault answers in the clear when it cannot or must not seal: a refused handshake, or an envelope refused
// before its sequence number was admitted.

/// A plaintext refusal: `{"error":{"code":"…","message":"…"}}` (compact UTF-8 JSON).
///
/// The vault sends it for a refused init and for every envelope refused before admission (layout, unknown or
/// expired session, suite, AEAD, padding, replay): sealing those would need a sequence number that was never
/// admitted, and could seal twice under one (key, sequence). It carries only the code and a fixed text about the
/// envelope's clear bytes, nothing of any plaintext. It is not authenticated: the app treats it as a hint (rekey on
/// `session_expired` / `unknown_session`, retry with a fresh sequence), never as an answer.
///
/// A handshake response starts with `0x02` and an envelope with `0x01`; a refusal starts with `{`
/// (``isRefusal(_:)``).
public struct SessionRefusal: Sendable, Hashable {
    /// The refusal's code and message.
    public let error: SessionError

    /// A refusal of `error`.
    public init(_ error: SessionError) { self.error = error }

    /// Whether `bytes` are a plaintext refusal rather than a handshake response or an envelope (first byte `{`).
    public static func isRefusal(_ bytes: [UInt8]) -> Bool { bytes.first == UInt8(ascii: "{") }

    /// Parses a refusal: an object whose only member `error` is an object of the strings `code` (non-empty) and
    /// `message`.
    /// - Throws: `malformed_message` for anything else.
    public init(parsing bytes: [UInt8]) throws(SessionError) {
        guard let json = JSONValue.parse(bytes), let members = json.objectMembers, members.count == 1,
            let error = json["error"], let errorMembers = error.objectMembers, errorMembers.count == 2,
            let code = error["code"]?.stringValue, !code.isEmpty, let message = error["message"]?.stringValue
        else { throw SessionError(.malformedMessage, "a refusal is {\"error\":{\"code\",\"message\"}}") }
        self.error = SessionError(.init(rawValue: code), message)
    }

    /// The compact JSON bytes.
    public var bytes: [UInt8] {
        JSONValue.object([
            ("error", .object([("code", .string(error.code.rawValue)), ("message", .string(error.message))]))
        ]).serialized()
    }
}
