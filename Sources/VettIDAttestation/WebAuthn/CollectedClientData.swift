// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
public import VettIDCore
import VettIDCrypto

/// The client data of a passkey ceremony (WebAuthn Level 3 §5.8.1): what the browser or platform says it was
/// asked to do, for which origin, with which challenge. The authenticator signs its SHA-256.
public struct CollectedClientData: Sendable, Hashable {
    /// The ceremony the client data belongs to.
    public enum CeremonyType: String, Sendable, Hashable {
        /// Registration: `navigator.credentials.create()`.
        case create = "webauthn.create"
        /// Authentication: `navigator.credentials.get()`.
        case get = "webauthn.get"
    }

    /// `type` as sent (checked against the ceremony by the relying party, so any string is kept here).
    public let type: String
    /// The challenge, decoded from base64url.
    public let challenge: [UInt8]
    /// The origin the client saw, e.g. `https://vettid.example`.
    public let origin: String
    /// Whether the ceremony ran in a frame of another origin.
    public let crossOrigin: Bool
    /// The top-level origin when the ceremony ran in a frame.
    public let topOrigin: String?
    /// The JSON as received.
    public let json: [UInt8]

    /// SHA-256 of the JSON: what the authenticator's signature covers after the authenticator data.
    public var hash: [UInt8] { Array(SHA256.hash(data: json)) }

    private struct Members: Decodable {
        let type: String
        let challenge: String
        let origin: String
        let crossOrigin: Bool?
        let topOrigin: String?
    }

    /// Parses `clientDataJSON`.
    /// - Throws: ``WebAuthnError`` `malformed_client_data` when it is not a UTF-8 JSON object (each member named once)
    ///   with string `type`,
    ///   `challenge` (base64url) and `origin`, and, when present, a boolean `crossOrigin` and a string `topOrigin`.
    public init(json: [UInt8]) throws(WebAuthnError) {
        guard String(decoding: json, as: UTF8.self).utf8.elementsEqual(json) else {
            throw WebAuthnError(.malformedClientData, "the client data is not UTF-8")
        }
        guard let keys = JSONObjectKeys.of(json), Set(keys).count == keys.count else {
            throw WebAuthnError(.malformedClientData, "the client data is not one JSON object, or names a member twice")
        }
        let members: Members
        do { members = try JSONDecoder().decode(Members.self, from: Data(json)) } catch {
            throw WebAuthnError(.malformedClientData, "the client data is not the JSON object WebAuthn defines")
        }
        guard let challenge = Base64URL.decode(members.challenge), !challenge.isEmpty else {
            throw WebAuthnError(.malformedClientData, "the client data's challenge is not base64url")
        }
        self.type = members.type
        self.challenge = challenge
        self.origin = members.origin
        self.crossOrigin = members.crossOrigin ?? false
        self.topOrigin = members.topOrigin
        self.json = json
    }

    /// Serializes client data the way a browser does (WebAuthn Level 3 §5.8.1.1: `type`, `challenge`, `origin`,
    /// `crossOrigin`, in that order, without white space), for the SDK's software authenticator.
    /// - Parameters:
    ///   - type: The ceremony.
    ///   - challenge: The relying party's challenge.
    ///   - origin: The origin of the relying party, e.g. `https://vettid.example`.
    public init(type: CeremonyType, challenge: [UInt8], origin: String) {
        var json = "{\"type\":" + Self.quoted(type.rawValue)
        json += ",\"challenge\":" + Self.quoted(Base64URL.encode(challenge))
        json += ",\"origin\":" + Self.quoted(origin) + ",\"crossOrigin\":false}"
        self.type = type.rawValue
        self.challenge = challenge
        self.origin = origin
        self.crossOrigin = false
        self.topOrigin = nil
        self.json = Array(json.utf8)
    }

    /// A JSON string (§5.8.1.1's CCDToString: quote, backslash and control characters escaped).
    private static func quoted(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case _ where scalar.value < 0x20: output += String(format: "\\u%04x", scalar.value)
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }
}
