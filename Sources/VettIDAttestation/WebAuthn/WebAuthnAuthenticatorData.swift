// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
public import VettIDCore

/// The authenticator data of a passkey ceremony (WebAuthn Level 3 §6.1), parsed strictly:
/// `rpIdHash(32) ‖ flags(1) ‖ signCount(4)`, then the attested credential data exactly when the AT flag is set
/// (`aaguid(16) ‖ credentialIdLength(2) ‖ credentialId ‖ COSE key`), then a CBOR extension map exactly when the
/// ED flag is set, and nothing after.
///
/// (App Attest's ``AuthenticatorData`` is lenient about trailing bytes because Apple appends extensions without
/// the ED flag; passkey authenticators follow the specification, so this one is not.)
public struct WebAuthnAuthenticatorData: Sendable, Hashable {
    /// The flags byte (WebAuthn Level 3 §6.1).
    public struct Flags: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// UP: the user was present.
        public static let userPresent = Flags(rawValue: 0x01)
        /// UV: the user was verified (biometry, PIN, device passcode).
        public static let userVerified = Flags(rawValue: 0x04)
        /// BE: the credential may be backed up (a multi-device passkey).
        public static let backupEligible = Flags(rawValue: 0x08)
        /// BS: the credential is backed up now.
        public static let backupState = Flags(rawValue: 0x10)
        /// AT: attested credential data follows.
        public static let attestedCredentialData = Flags(rawValue: 0x40)
        /// ED: an extension map follows.
        public static let extensionData = Flags(rawValue: 0x80)
    }

    /// The attested credential data of a registration.
    public struct AttestedCredential: Sendable, Hashable {
        /// The authenticator model's AAGUID (all zero for most platform authenticators with `none` attestation).
        public let aaguid: [UInt8]
        /// The credential id.
        public let credentialID: [UInt8]
        /// The credential public key.
        public let publicKey: COSEKey

        /// Creates attested credential data.
        /// - Parameters:
        ///   - aaguid: 16 bytes.
        ///   - credentialID: At most 65,535 bytes (the relying party accepts at most 1,023).
        ///   - publicKey: The credential public key.
        public init(aaguid: [UInt8], credentialID: [UInt8], publicKey: COSEKey) {
            self.aaguid = aaguid
            self.credentialID = credentialID
            self.publicKey = publicKey
        }
    }

    /// SHA-256 of the relying party id the authenticator scoped the credential to.
    public let rpIDHash: [UInt8]
    /// The flags.
    public let flags: Flags
    /// The signature counter (zero from authenticators that keep none, such as synced passkeys).
    public let signCount: UInt32
    /// The attested credential data, present exactly when ``Flags/attestedCredentialData`` is set.
    public let attestedCredential: AttestedCredential?
    /// Whether an extension map is present (its contents are not interpreted: this relying party requests none).
    public var hasExtensions: Bool { flags.contains(.extensionData) }
    /// The bytes as received (what an assertion signature covers).
    public let bytes: [UInt8]

    /// Parses authenticator data.
    /// - Throws: ``WebAuthnError`` `malformed_authenticator_data`, or `malformed_public_key` for the credential key.
    public init(bytes: [UInt8]) throws(WebAuthnError) {
        guard bytes.count >= 37 else { throw Self.malformed("the authenticator data is shorter than 37 bytes") }
        self.bytes = bytes
        rpIDHash = Array(bytes[0..<32])
        flags = Flags(rawValue: bytes[32])
        signCount = bytes[33..<37].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        var offset = 37
        if flags.contains(.attestedCredentialData) {
            guard bytes.count >= 55 else { throw Self.malformed("the attested credential data is truncated") }
            let length = Int(bytes[53]) << 8 | Int(bytes[54])
            guard bytes.count - 55 >= length else { throw Self.malformed("the credential id is truncated") }
            let credentialID = Array(bytes[55..<(55 + length)])
            var reader = CBORReader(bytes, offset: 55 + length)
            let key: CBORValue
            do { key = try reader.read() } catch {
                throw WebAuthnError(.malformedPublicKey, "the credential public key is not CBOR: \(error.reason)")
            }
            attestedCredential = AttestedCredential(
                aaguid: Array(bytes[37..<53]), credentialID: credentialID, publicKey: try COSEKey(cbor: key))
            offset = reader.offset
        } else {
            attestedCredential = nil
        }
        if flags.contains(.extensionData) {
            var reader = CBORReader(bytes, offset: offset)
            let extensions: CBORValue
            do { extensions = try reader.read() } catch {
                throw Self.malformed("the extension data is not CBOR: \(error.reason)")
            }
            guard case .map = extensions else { throw Self.malformed("the extension data is not a CBOR map") }
            offset = reader.offset
        }
        guard offset == bytes.count else {
            throw Self.malformed("\(bytes.count - offset) bytes follow the authenticator data")
        }
    }

    /// Encodes authenticator data without extensions (what the SDK's software authenticator emits); the AT flag is
    /// set exactly when `attestedCredential` is given.
    /// - Parameters:
    ///   - rpID: The relying party id; its SHA-256 opens the data.
    ///   - flags: The flags; ``Flags/attestedCredentialData`` and ``Flags/extensionData`` are set or cleared here.
    ///   - signCount: The signature counter.
    ///   - attestedCredential: The credential of a registration, `nil` for an assertion.
    public static func encode(
        rpID: String, flags: Flags, signCount: UInt32, attestedCredential: AttestedCredential? = nil
    ) -> [UInt8] {
        var flags = flags.subtracting([.attestedCredentialData, .extensionData])
        if attestedCredential != nil { flags.insert(.attestedCredentialData) }
        var output = Array(SHA256.hash(data: Array(rpID.utf8)))
        output.append(flags.rawValue)
        output += (0..<4).map { UInt8(truncatingIfNeeded: signCount >> (24 - 8 * $0)) }
        if let attestedCredential {
            output += attestedCredential.aaguid
            output += [
                UInt8(attestedCredential.credentialID.count >> 8), UInt8(attestedCredential.credentialID.count & 0xFF),
            ]
            output += attestedCredential.credentialID
            output += attestedCredential.publicKey.encoded
        }
        return output
    }

    private static func malformed(_ message: String) -> WebAuthnError {
        WebAuthnError(.malformedAuthenticatorData, message)
    }
}
