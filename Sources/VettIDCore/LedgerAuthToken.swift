// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// The Ledger Authentication Token (LAT): proof that the server the device talks to is the one it enrolled with.
///
/// The server returns the current LAT in every action response; the device compares it with its stored copy
/// (``matches(_:)``) and refuses to send the password on any difference (`lat_mismatch`): a phishing server
/// cannot produce it. The LAT rotates (version + 1) after each successful authentication. The server derives it
/// (`LedgerAuthTokenDeriver`, docs/protocol.md §4); this value is what both sides hold and send.
public struct LedgerAuthToken: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The LAT's id.
    public var latID: String
    /// The token, base64url of 32 bytes.
    public var token: String
    /// The LAT's version.
    public var version: Int

    /// Creates a LAT.
    public init(latID: String, token: String, version: Int) {
        self.latID = latID
        self.token = token
        self.version = version
    }

    /// Whether `other` has the same id, token and version. The token is compared in constant time.
    public func matches(_ other: LedgerAuthToken) -> Bool {
        let left = Array(token.utf8)
        let right = Array(other.token.utf8)
        var difference = UInt8(left.count == right.count ? 0 : 1)
        for index in 0..<min(left.count, right.count) {
            difference |= left[index] ^ right[index]
        }
        return difference == 0 && latID == other.latID && version == other.version
    }

    /// Shows the id and version, never the token.
    public var description: String { "LedgerAuthToken(\(latID), version \(version))" }

    enum CodingKeys: String, CodingKey {
        case latID = "lat_id"
        case token
        case version
        /// The id's key in packages the server stored before the LAT had one definition (enrollment and action
        /// rows live for minutes; read so that an upgrade does not break one in flight).
        case legacyID = "id"
    }

    /// Decodes `lat_id` (or the older `id`), `token` and `version`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        latID =
            try container.decodeIfPresent(String.self, forKey: .latID)
            ?? container.decode(String.self, forKey: .legacyID)
        token = try container.decode(String.self, forKey: .token)
        version = try container.decode(Int.self, forKey: .version)
    }

    /// Encodes `lat_id`, `token` and `version`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(latID, forKey: .latID)
        try container.encode(token, forKey: .token)
        try container.encode(version, forKey: .version)
    }
}
