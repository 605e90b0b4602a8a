// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Crypto
import SwiftASN1
public import VettIDAttestation
import VettIDVerification
import X509

// Produces App Attest-format attestations and assertions without Apple hardware.

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A P-256 key attested by a ``SoftwareAttester``.
public struct SoftwareAttestationKey: Sendable, CustomStringConvertible {
    /// The private key. Never log it.
    public let privateKey: P256.Signing.PrivateKey

    /// Wraps a key, or creates a fresh one.
    public init(privateKey: P256.Signing.PrivateKey = P256.Signing.PrivateKey()) {
        self.privateKey = privateKey
    }

    /// SHA-256 of the uncompressed public key, as App Attest derives key ids.
    public var keyID: [UInt8] { Array(SHA256.hash(data: privateKey.publicKey.x963Representation)) }

    /// The key id in standard base64, as `DCAppAttestService` reports it.
    public var keyIDBase64: String { Data(keyID).base64EncodedString() }

    /// Shows only the key id.
    public var description: String { "SoftwareAttestationKey(\(keyIDBase64))" }
}

/// Produces App Attest-format objects under a ``SoftwareAttestationAuthority``, so the server's full
/// verifier runs on Linux, in CI, and in the simulator.
public struct SoftwareAttester: Sendable {
    /// The authority that certifies keys.
    public let authority: SoftwareAttestationAuthority
    /// The app id, `"<TeamID>.<bundleID>"`.
    public let appID: String
    /// The environment written into the aaguid.
    public let environment: AppAttestEnvironment

    /// Creates an attester.
    public init(
        authority: SoftwareAttestationAuthority, appID: String, environment: AppAttestEnvironment = .development
    ) {
        self.authority = authority
        self.appID = appID
        self.environment = environment
    }

    /// The attestation object for `key`, as `DCAppAttestService.attestKey(_:clientDataHash:)` returns it:
    /// CBOR `{fmt: "apple-appattest", attStmt: {x5c: [credential, intermediate], receipt}, authData}`.
    public func attestKey(_ key: SoftwareAttestationKey, clientDataHash: [UInt8], now: Date = Date()) throws -> [UInt8]
    {
        try attestationObject(
            for: key, authData: attestationAuthenticatorData(for: key), clientDataHash: clientDataHash, now: now)
    }

    /// `rpIdHash ‖ flags 0x40 ‖ counter ‖ aaguid ‖ u16be(32) ‖ credentialId ‖ COSE_Key(EC2, ES256, P-256)`.
    func attestationAuthenticatorData(
        for key: SoftwareAttestationKey, counter: UInt32 = 0, credentialID: [UInt8]? = nil
    ) -> [UInt8] {
        let raw = Array(key.privateKey.publicKey.rawRepresentation)
        let coseKey = CBORValue.map([
            CBORMapEntry(key: .unsigned(1), value: .unsigned(2)),  // kty: EC2
            CBORMapEntry(key: .unsigned(3), value: .negative(6)),  // alg: ES256 (-7)
            CBORMapEntry(key: .negative(0), value: .unsigned(1)),  // crv: P-256
            CBORMapEntry(key: .negative(1), value: .bytes(Array(raw[0..<32]))),  // x
            CBORMapEntry(key: .negative(2), value: .bytes(Array(raw[32..<64]))),  // y
        ])
        let credentialID = credentialID ?? key.keyID
        var authData = rpIDHash
        authData.append(0x40)  // AT: attested credential data present
        authData += (0..<4).map { UInt8(truncatingIfNeeded: counter >> (24 - 8 * $0)) }
        authData += environment.aaguid
        authData += [UInt8(credentialID.count >> 8), UInt8(credentialID.count & 0xFF)]
        authData += credentialID
        authData += coseKey.encoded()
        return authData
    }

    /// Builds an attestation object around given authenticator data (tests use it to forge fields that
    /// `attestKey` always writes correctly, such as the counter or the credential id).
    func attestationObject(
        for key: SoftwareAttestationKey,
        authData: [UInt8],
        clientDataHash: [UInt8],
        now: Date,
        format: String = "apple-appattest",
        includeNonceExtension: Bool = true
    ) throws -> [UInt8] {
        let nonce = Array(SHA256.hash(data: authData + clientDataHash))
        let credential = try authority.credentialCertificate(
            for: key.privateKey.publicKey,
            nonce: includeNonceExtension ? nonce : nil,
            notBefore: now.addingTimeInterval(-60),
            notAfter: now.addingTimeInterval(300 * 86400)
        )
        let x5c: [CBORValue] = [
            .bytes(try derBytes(credential)), .bytes(try derBytes(authority.intermediateCertificate)),
        ]
        return CBORValue.map([
            CBORMapEntry(key: .text("fmt"), value: .text(format)),
            CBORMapEntry(
                key: .text("attStmt"),
                value: .map([
                    CBORMapEntry(key: .text("x5c"), value: .array(x5c)),
                    CBORMapEntry(key: .text("receipt"), value: .bytes(Array("vettid-software-receipt".utf8))),
                ])
            ),
            CBORMapEntry(key: .text("authData"), value: .bytes(authData)),
        ]).encoded()
    }

    /// The layout of an assertion's authenticator data, as iOS versions produce it.
    public enum AssertionShape: Sendable {
        /// iOS 14-26: the 37-byte header, flags 0x40.
        case header
        /// iOS 27: flags 0xc0 (AT and ED) and the extension map
        /// `{apple_bundle_version_01, apple_validation_category_01}` after the header.
        case ios27
    }

    /// An assertion, as `DCAppAttestService.generateAssertion(_:clientDataHash:)` returns it:
    /// CBOR `{signature: DER ECDSA over SHA-256(authenticatorData ‖ SHA-256(clientData)), authenticatorData}`.
    /// - Parameters:
    ///   - key: the attested key that signs.
    ///   - clientData: the bytes whose SHA-256 is the assertion's `clientDataHash` (in VettID the challenge followed
    ///     by the device key's 32-byte thumbprint).
    ///   - counter: the counter to write; a real device increments it on every assertion.
    ///   - shape: the authenticator-data layout; current iPhones run iOS 27, so that is the default.
    public func generateAssertion(
        _ key: SoftwareAttestationKey, clientData: [UInt8], counter: UInt32, shape: AssertionShape = .ios27
    ) throws -> [UInt8] {
        var authenticatorData = rpIDHash
        authenticatorData.append(shape == .ios27 ? 0xC0 : 0x40)
        authenticatorData += (0..<4).map { UInt8(truncatingIfNeeded: counter >> (24 - 8 * $0)) }
        if shape == .ios27 {
            authenticatorData += CBORValue.map([
                CBORMapEntry(key: .text("apple_bundle_version_01"), value: .text("1")),
                CBORMapEntry(key: .text("apple_validation_category_01"), value: .bytes([3, 0, 0, 0])),
            ]).encoded()
        }
        let nonce = Array(SHA256.hash(data: authenticatorData + Array(SHA256.hash(data: clientData))))
        let signature = try key.privateKey.signature(for: nonce)
        return CBORValue.map([
            CBORMapEntry(key: .text("signature"), value: .bytes(Array(signature.derRepresentation))),
            CBORMapEntry(key: .text("authenticatorData"), value: .bytes(authenticatorData)),
        ]).encoded()
    }

    private var rpIDHash: [UInt8] { Array(SHA256.hash(data: Array(appID.utf8))) }

    private func derBytes(_ certificate: Certificate) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return serializer.serializedBytes
    }
}
