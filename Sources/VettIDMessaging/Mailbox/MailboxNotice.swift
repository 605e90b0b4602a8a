// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// What the vault leaves in a device's mailbox (docs/protocol.md 7.5), once opened.

public import Foundation
import VettIDCrypto

/// A message the vault left for the member's devices: compact JSON `{"id","type","sent_at","body"}` inside a sealed
/// mailbox body (`MailboxSeal` in VettIDCrypto).
public struct MailboxNotice: Sendable, Hashable, Codable {
    /// What kind of notice: an open set, so that a newer vault's kinds decode (with no body) in an older app.
    public struct Kind: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(from decoder: any Decoder) throws {
            rawValue = try decoder.singleValueContainer().decode(String.self)
        }
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }
        public var description: String { rawValue }

        /// A security event of the account (a sign-in, a device enrolled or revoked, a token revoked).
        public static let securityEvent = Kind(rawValue: "security_event")
    }

    /// A security event as the portal's security page shows it.
    public struct SecurityEvent: Sendable, Hashable, Codable {
        /// The event's kind (`login`, `device_enrolled`, …; an open set).
        public let kind: String
        /// When it happened, Unix milliseconds.
        public let occurredAt: Int64
        /// A short public detail (a device type, a label).
        public let detail: String?
        /// The address the request came from.
        public let ip: String?
        /// The client's description (`User-Agent`).
        public let client: String?

        public init(kind: String, occurredAt: Int64, detail: String? = nil, ip: String? = nil, client: String? = nil) {
            self.kind = kind
            self.occurredAt = occurredAt
            self.detail = detail
            self.ip = ip
            self.client = client
        }

        private enum CodingKeys: String, CodingKey {
            case kind, detail, ip, client
            case occurredAt = "occurred_at"
        }
    }

    /// `mn_` and 16 random bytes in base64url; the same in every device's copy.
    public let id: String
    /// What it is.
    public let kind: Kind
    /// When the vault wrote it, Unix milliseconds.
    public let sentAt: Int64
    /// The event, for ``Kind/securityEvent``; `nil` for kinds this code does not know.
    public let securityEvent: SecurityEvent?

    public init(id: String, kind: Kind, sentAt: Int64, securityEvent: SecurityEvent?) {
        self.id = id
        self.kind = kind
        self.sentAt = sentAt
        self.securityEvent = securityEvent
    }

    /// A fresh notice id: `mn_` and 16 random bytes, base64url without padding.
    public static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return "mn_" + Base64URL.encode(bytes)
    }

    private enum CodingKeys: String, CodingKey {
        case id, body
        case kind = "type"
        case sentAt = "sent_at"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        kind = try container.decode(Kind.self, forKey: .kind)
        sentAt = try container.decode(Int64.self, forKey: .sentAt)
        securityEvent =
            kind == .securityEvent ? try container.decode(SecurityEvent.self, forKey: .body) : nil
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(kind, forKey: .kind)
        try container.encode(sentAt, forKey: .sentAt)
        if let securityEvent { try container.encode(securityEvent, forKey: .body) }
    }

    /// The compact JSON form, members sorted.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// A notice from its JSON form.
    public static func decode(_ json: some DataProtocol) throws -> MailboxNotice {
        try JSONDecoder().decode(MailboxNotice.self, from: Data(json))
    }

    /// A short line for people: `security_event login at 2026-… from 127.0.0.1 (vettid-cli/1.0)`.
    public var summary: String {
        guard let event = securityEvent else { return "\(kind) \(id)" }
        let when = Date(timeIntervalSince1970: Double(event.occurredAt) / 1000).formatted(.iso8601)
        var line = "security event \(event.kind) at \(when)"
        if let detail = event.detail { line += ": \(detail)" }
        if let ip = event.ip { line += " from \(ip)" }
        if let client = event.client { line += " (\(client))" }
        return line
    }
}
