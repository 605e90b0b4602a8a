// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

// The authenticator data of an App Attest assertion.

/// Authenticator data as `DCAppAttestService.generateAssertion` produces it:
/// `rpIdHash(32) ‖ flags(1) ‖ counter(4, big-endian)`, optionally followed by one CBOR extension map.
///
/// An assertion never carries attested credential data, whatever the AT flag (0x40) says: iOS sets AT on
/// every assertion, and from iOS 27 also ED (0x80) with an extension map such as
/// `{apple_bundle_version_01, apple_validation_category_01}` right after the 37-byte header (99 and 102
/// bytes in total seen on real devices). Reading those bytes as attested credential data, as WebAuthn's
/// attestation layout would, yields a nonsense credential-id length and refuses every iOS 27 device.
///
/// Rules:
/// - fewer than 37 bytes: refused;
/// - ED set: the rest must be exactly one well-formed CBOR map;
/// - ED clear: the rest must be empty or exactly one CBOR map (Apple's own iOS 27 attestation sample
///   carries the map without ED, so the same is accepted here).
///
/// The bytes are covered by the assertion signature, which is checked before this type is built; the
/// extensions are kept uninterpreted.
public struct AssertionAuthenticatorData: Sendable, Hashable {
    /// The ED flag: extension data follows.
    public static let extensionDataFlag: UInt8 = 0x80

    /// SHA-256 of the app id (`TeamID.bundleID`).
    public let rpIDHash: [UInt8]
    /// The flags byte, as sent.
    public let flags: UInt8
    /// The signature counter.
    public let counter: UInt32
    /// The encoded CBOR extension map, empty when there is none.
    public let extensions: [UInt8]

    /// Parses assertion authenticator data.
    /// - Throws: `AppAttestError.Code.malformedAuthenticatorData` when the header is short, the ED flag
    ///   promises extensions that are not there, or the bytes after the header are not one CBOR map.
    public init(bytes: [UInt8]) throws(AppAttestError) {
        guard bytes.count >= 37 else {
            throw AppAttestError(.malformedAuthenticatorData, "assertion authenticator data is shorter than 37 bytes")
        }
        rpIDHash = Array(bytes[0..<32])
        flags = bytes[32]
        counter = bytes[33..<37].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        extensions = Array(bytes[37...])
        if extensions.isEmpty {
            guard flags & Self.extensionDataFlag == 0 else {
                throw AppAttestError(.malformedAuthenticatorData, "the ED flag is set but no extensions follow")
            }
            return
        }
        let map: CBORValue
        do throws(CBORReader.Failure) {
            map = try CBORReader.decodeSingle(extensions)
        } catch {
            throw AppAttestError(
                .malformedAuthenticatorData,
                "the bytes after the assertion header are not one CBOR map: \(error.reason)")
        }
        guard case .map = map else {
            throw AppAttestError(.malformedAuthenticatorData, "the assertion extensions are not a CBOR map")
        }
    }
}
