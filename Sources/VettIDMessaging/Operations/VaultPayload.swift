// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The JSON form of a vault handler's request or result.

import Foundation
public import VettIDCore
public import VettIDCrypto

/// A value a vault handler receives or returns: it has one JSON form, read and written the same way by the app and
/// the vault.
///
/// `Codable` types get both directions from their `Codable` conformance (``VaultCodablePayload``); `JSONValue` is
/// its own form (the `echo` handler takes any JSON).
public protocol VaultPayload: Sendable {
    /// Reads the value from its JSON form.
    /// - Throws: `VaultMessageError` `invalid_payload` when `json` is not this type's form.
    init(vaultPayload json: JSONValue) throws(VaultMessageError)
    /// The value's JSON form.
    func vaultPayload() throws(VaultMessageError) -> JSONValue
}

/// A `Codable` payload: its JSON form is what `JSONEncoder` writes, members sorted (member names are the types' coding
/// keys, in snake case on the wire; `Data` is padded base64; times are integer milliseconds since 1970).
public protocol VaultCodablePayload: VaultPayload, Codable {}

extension VaultCodablePayload {
    public init(vaultPayload json: JSONValue) throws(VaultMessageError) {
        do {
            self = try JSONDecoder().decode(Self.self, from: Data(json.serialized()))
        } catch {
            throw VaultMessageError(
                .invalidPayload, "the payload is not a \(Self.self): \(VaultPayloadDecodingSummary(error))",
                underlying: error)
        }
    }

    public func vaultPayload() throws(VaultMessageError) -> JSONValue {
        let bytes: Data
        let encoder = JSONEncoder()
        // One byte form for one value: members in sorted order.
        encoder.outputFormatting = .sortedKeys
        do {
            bytes = try encoder.encode(self)
        } catch {
            throw VaultMessageError(.invalidPayload, "a \(Self.self) could not be written", underlying: error)
        }
        guard let json = JSONValue.parse(bytes) else {
            throw VaultMessageError(.invalidPayload, "a \(Self.self) was written as invalid JSON")
        }
        return json
    }
}

extension JSONValue: VaultPayload {
    public init(vaultPayload json: JSONValue) throws(VaultMessageError) { self = json }
    public func vaultPayload() throws(VaultMessageError) -> JSONValue { self }
}

/// The request of a handler that takes nothing: written as `{}`; `null` and any object are read as it (clients of
/// earlier versions send `null`).
public struct VaultEmptyPayload: VaultPayload, Hashable {
    public init() {}

    public init(vaultPayload json: JSONValue) throws(VaultMessageError) {
        switch json {
        case .null, .object: self.init()
        default: throw VaultMessageError(.invalidPayload, "the payload is an object or null")
        }
    }

    public func vaultPayload() throws(VaultMessageError) -> JSONValue { .object([]) }
}

/// Which member of a payload did not decode, without its value (a payload may carry a secret).
struct VaultPayloadDecodingSummary: CustomStringConvertible {
    let description: String

    init(_ error: any Error) {
        guard let error = error as? DecodingError else {
            description = "unreadable"
            return
        }
        func path(_ context: DecodingError.Context) -> String {
            let names = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return names.isEmpty ? "the payload" : "'\(names.joined(separator: "."))'"
        }
        switch error {
        case .keyNotFound(let key, let context):
            let parent = path(context)
            description = "'\(key.stringValue)' is missing" + (context.codingPath.isEmpty ? "" : " in \(parent)")
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            description = "\(path(context)) has the wrong type"
        case .dataCorrupted(let context):
            description = "\(path(context)) is not valid"
        @unknown default:
            description = "unreadable"
        }
    }
}
