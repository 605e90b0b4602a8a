// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

// The second handshake message, vault -> app, on the init's reply subject.

/// The vault's handshake message: the chosen suite and every suite the vault supports, the session's id and limits,
/// the HPKE encapsulation to the chosen offer, and the vault's signature over the whole transcript.
///
/// Layout (big-endian):
///
/// ```
/// u8 type = 0x02 | u8 version = 0x01 | u16 suite | u8 vault_suite_count (1...16), u16 each
/// 16 session_id | 32 nonce_v | str8 vault_kid | u64 expires_at_ms | u32 max_messages (>= 1)
/// bytes16 enc | 64 vault_signature (ES256 raw r||s over "VettID session v1 resp" || th)
/// ```
///
/// with `th = SHA-256(init || response without its signature)`. Parsing is strict (exact lengths, distinct vault
/// suites, no trailing bytes); whether `enc` has the chosen suite's length is checked by the app once it knows the
/// suite is one it offered.
public struct SessionResponse: Sendable, Hashable {
    /// The `type` byte.
    public static let messageType: UInt8 = 0x02
    /// The protocol version this type speaks.
    public static let version: UInt8 = 0x01
    /// The most suites a vault may list.
    public static let maxVaultSuites = 16

    /// The chosen suite.
    public let suite: SessionSuite
    /// Every suite the vault supports, so the app can check that the choice was its most preferred common one.
    public let vaultSuites: [SessionSuite]
    /// The session's id, random.
    public let sessionID: SessionID
    /// `nonce_v`: 32 random bytes.
    public let nonce: [UInt8]
    /// The kid of the vault identity key that signs this response.
    public let vaultKID: String
    /// When the session ends, Unix milliseconds.
    public let expiresAtMilliseconds: UInt64
    /// How many requests the session admits before a new handshake is needed.
    public let maxMessages: UInt32
    /// The HPKE encapsulated key to the chosen offer's ephemeral key.
    public let encapsulatedKey: [UInt8]
    /// `vault_signature`: ES256, raw `r || s`, over `"VettID session v1 resp" || th`.
    public let vaultSignature: [UInt8]

    /// Builds a response from its fields, checked as the parser checks them (`malformed_handshake`).
    public init(
        suite: SessionSuite, vaultSuites: [SessionSuite], sessionID: SessionID, nonce: [UInt8], vaultKID: String,
        expiresAtMilliseconds: UInt64, maxMessages: UInt32, encapsulatedKey: [UInt8],
        vaultSignature: [UInt8] = [UInt8](repeating: 0, count: 64)
    ) throws(SessionError) {
        guard (1...Self.maxVaultSuites).contains(vaultSuites.count), Set(vaultSuites).count == vaultSuites.count else {
            throw Self.malformed("vault_suites must be 1 to \(Self.maxVaultSuites) distinct suites")
        }
        guard nonce.count == 32 else { throw Self.malformed("nonce_v must be 32 bytes") }
        guard UTF8Field.isValid(vaultKID) else { throw Self.malformed("vault_kid must be 1 to 255 bytes") }
        guard maxMessages >= 1 else { throw Self.malformed("max_messages must be at least 1") }
        guard (1...Int(UInt16.max)).contains(encapsulatedKey.count) else {
            throw Self.malformed("enc must be 1 to 65535 bytes")
        }
        guard vaultSignature.count == 64 else { throw Self.malformed("vault_signature must be 64 bytes") }
        self.suite = suite
        self.vaultSuites = vaultSuites
        self.sessionID = sessionID
        self.nonce = nonce
        self.vaultKID = vaultKID
        self.expiresAtMilliseconds = expiresAtMilliseconds
        self.maxMessages = maxMessages
        self.encapsulatedKey = encapsulatedKey
        self.vaultSignature = vaultSignature
    }

    /// Parses a response strictly.
    /// - Throws: `unsupported_version` for another version, `malformed_handshake` for anything else wrong.
    public init(parsing bytes: [UInt8]) throws(SessionError) {
        var reader = ByteReader(bytes)
        guard let type = reader.u8(), type == Self.messageType else { throw Self.malformed("type must be 0x02") }
        guard let version = reader.u8() else { throw Self.malformed("the response ends before its version") }
        guard version == Self.version else {
            throw SessionError(.unsupportedVersion, "response version \(version) is not supported (1 is)")
        }
        guard let suite = reader.u16(), let count = reader.u8() else {
            throw Self.malformed("the response ends inside suite or vault_suite_count")
        }
        var vaultSuites: [SessionSuite] = []
        for _ in 0..<count {
            guard let raw = reader.u16() else { throw Self.malformed("the response ends inside vault_suites") }
            vaultSuites.append(SessionSuite(rawValue: raw))
        }
        guard let id = reader.bytes(SessionID.length), let nonce = reader.bytes(32) else {
            throw Self.malformed("the response ends inside session_id or nonce_v")
        }
        guard let kidBytes = reader.str8(), let vaultKID = UTF8Field.decode(kidBytes) else {
            throw Self.malformed("vault_kid must be 1 to 255 bytes of UTF-8")
        }
        guard let expiresAt = reader.u64(), let maxMessages = reader.u32(), let enc = reader.bytes16(),
            let signature = reader.bytes(64)
        else { throw Self.malformed("the response ends inside expires_at_ms, max_messages, enc or its signature") }
        guard reader.isAtEnd else { throw Self.malformed("bytes follow the vault signature") }
        try self.init(
            suite: SessionSuite(rawValue: suite), vaultSuites: vaultSuites, sessionID: SessionID(validBytes: id),
            nonce: nonce, vaultKID: vaultKID, expiresAtMilliseconds: expiresAt, maxMessages: maxMessages,
            encapsulatedKey: enc, vaultSignature: signature)
    }

    /// The response without its signature: what the transcript hash covers after the init.
    public var signedBytes: [UInt8] {
        var bytes: [UInt8] = [Self.messageType, Self.version]
        bytes.appendU16(suite.rawValue)
        bytes.append(UInt8(vaultSuites.count))
        for vaultSuite in vaultSuites { bytes.appendU16(vaultSuite.rawValue) }
        bytes.append(contentsOf: sessionID.bytes)
        bytes.append(contentsOf: nonce)
        bytes.appendStr8(Array(vaultKID.utf8))
        bytes.appendU64(expiresAtMilliseconds)
        bytes.appendU32(maxMessages)
        bytes.appendBytes16(encapsulatedKey)
        return bytes
    }

    /// The whole message, signature included.
    public var bytes: [UInt8] { signedBytes + vaultSignature }

    /// The same response with `signature` as its vault signature (64 bytes, else `malformed_handshake`).
    public func signed(_ signature: [UInt8]) throws(SessionError) -> SessionResponse {
        try SessionResponse(
            suite: suite, vaultSuites: vaultSuites, sessionID: sessionID, nonce: nonce, vaultKID: vaultKID,
            expiresAtMilliseconds: expiresAtMilliseconds, maxMessages: maxMessages, encapsulatedKey: encapsulatedKey,
            vaultSignature: signature)
    }

    private static func malformed(_ message: String) -> SessionError { SessionError(.malformedHandshake, message) }
}
