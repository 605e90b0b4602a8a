// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import CryptoExtras
import Foundation
public import VettIDAttestation
import VettIDCrypto

/// A passkey for tests: a key of any algorithm the relying party accepts, and responses built field by field, so
/// a test can forge exactly one thing (another origin, a flag, the counter, the key's encoding, the signed bytes).
public struct TestPasskey: Sendable {
    private enum Signer: Sendable {
        case p256(P256.Signing.PrivateKey)
        case ed25519(Curve25519.Signing.PrivateKey)
        case rsa(_RSA.Signing.PrivateKey)
    }

    /// The credential id.
    public let credentialID: [UInt8]
    /// The public key.
    public let publicKey: COSEKey
    private let signer: Signer

    /// A new key of `algorithm` (RSA keys are 2,048 bits).
    public init(_ algorithm: COSEAlgorithm = .es256, credentialID: [UInt8]? = nil) throws {
        switch algorithm {
        case .es256:
            let key = P256.Signing.PrivateKey()
            let point = Array(key.publicKey.rawRepresentation)
            signer = .p256(key)
            publicKey = .p256(x: Array(point.prefix(32)), y: Array(point.suffix(32)))
        case .edDSA:
            let key = Curve25519.Signing.PrivateKey()
            signer = .ed25519(key)
            publicKey = .ed25519(x: Array(key.publicKey.rawRepresentation))
        case .rs256:
            let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
            let der = Array(key.publicKey.pkcs1DERRepresentation)
            signer = .rsa(key)
            publicKey = try Self.rsaComponents(pkcs1: der)
        }
        self.credentialID = credentialID ?? (0..<32).map { _ in UInt8.random(in: 0...255) }
    }

    /// This key's signature over `data` (ECDSA in DER).
    public func sign(_ data: [UInt8]) throws -> [UInt8] {
        switch signer {
        case .p256(let key): Array(try key.signature(for: data).derRepresentation)
        case .ed25519(let key): Array(try key.signature(for: data))
        case .rsa(let key): Array(try key.signature(for: data, padding: .insecurePKCS1v1_5).rawRepresentation)
        }
    }

    /// Client data JSON with any members.
    public static func clientData(
        type: String, challenge: [UInt8], origin: String, crossOrigin: Bool? = nil, topOrigin: String? = nil
    ) -> [UInt8] {
        var json = "{\"type\":\"\(type)\",\"challenge\":\"\(Base64URL.encode(challenge))\",\"origin\":\"\(origin)\""
        if let crossOrigin { json += ",\"crossOrigin\":\(crossOrigin)" }
        if let topOrigin { json += ",\"topOrigin\":\"\(topOrigin)\"" }
        return Array((json + "}").utf8)
    }

    /// A registration response; every part can be replaced.
    /// - Parameters:
    ///   - challenge: The server's challenge.
    ///   - rpID: The relying party id hashed into the authenticator data.
    ///   - origin: The client data's origin.
    ///   - flags: The flags (AT is added).
    ///   - signCount: The counter.
    ///   - clientDataJSON: Replaces the client data.
    ///   - coseKey: Replaces the encoded public key.
    ///   - format: `none` or `packed` (self attestation by this key).
    ///   - responseCredentialID: Replaces the id the response names (not the attested one).
    public func registration(
        challenge: [UInt8], rpID: String, origin: String,
        flags: WebAuthnAuthenticatorData.Flags = [.userPresent, .userVerified], signCount: UInt32 = 0,
        clientDataJSON: [UInt8]? = nil, coseKey: [UInt8]? = nil, format: String = "none",
        responseCredentialID: [UInt8]? = nil
    ) throws -> PasskeyRegistrationResponse {
        var authenticatorData = Array(SHA256.hash(data: Array(rpID.utf8)))
        authenticatorData.append(flags.union(.attestedCredentialData).rawValue)
        authenticatorData += (0..<4).map { UInt8(truncatingIfNeeded: signCount >> (24 - 8 * $0)) }
        authenticatorData += [UInt8](repeating: 0, count: 16)
        authenticatorData += [UInt8(credentialID.count >> 8), UInt8(credentialID.count & 0xFF)] + credentialID
        authenticatorData += coseKey ?? publicKey.encoded
        let clientData =
            clientDataJSON ?? Self.clientData(type: "webauthn.create", challenge: challenge, origin: origin)
        let attestation: [UInt8]
        if format == "packed" {
            let signature = try sign(authenticatorData + Array(SHA256.hash(data: clientData)))
            attestation = Self.attestationObject(
                format: "packed",
                statement: [("alg", .init(integer: publicKey.algorithm.rawValue)), ("sig", .bytes(signature))],
                authenticatorData: authenticatorData)
        } else {
            attestation = Self.attestationObject(format: format, statement: [], authenticatorData: authenticatorData)
        }
        return PasskeyRegistrationResponse(
            credentialID: responseCredentialID ?? credentialID, clientDataJSON: clientData,
            attestationObject: attestation, transports: ["internal"])
    }

    /// An authentication response; every part can be replaced.
    /// - Parameters:
    ///   - challenge: The server's challenge.
    ///   - rpID: The relying party id hashed into the authenticator data.
    ///   - origin: The client data's origin.
    ///   - flags: The flags.
    ///   - signCount: The counter.
    ///   - userHandle: The user handle returned.
    ///   - clientDataJSON: Replaces the client data.
    ///   - signedData: Replaces what is signed (authenticator data ‖ SHA-256(client data)).
    ///   - credentialID: Replaces the credential id the response names.
    public func assertion(
        challenge: [UInt8], rpID: String, origin: String,
        flags: WebAuthnAuthenticatorData.Flags = [.userPresent, .userVerified], signCount: UInt32 = 1,
        userHandle: [UInt8]?, clientDataJSON: [UInt8]? = nil, signedData: [UInt8]? = nil,
        credentialID: [UInt8]? = nil
    ) throws -> PasskeyAssertionResponse {
        let authenticatorData = WebAuthnAuthenticatorData.encode(rpID: rpID, flags: flags, signCount: signCount)
        let clientData = clientDataJSON ?? Self.clientData(type: "webauthn.get", challenge: challenge, origin: origin)
        let signature = try sign(signedData ?? authenticatorData + Array(SHA256.hash(data: clientData)))
        return PasskeyAssertionResponse(
            credentialID: credentialID ?? self.credentialID, clientDataJSON: clientData,
            authenticatorData: authenticatorData, signature: signature, userHandle: userHandle)
    }

    /// A CBOR attestation object.
    package static func attestationObject(
        format: String, statement: [(String, CBORValue)], authenticatorData: [UInt8]
    ) -> [UInt8] {
        CBORValue.map([
            CBORMapEntry(key: .text("fmt"), value: .text(format)),
            CBORMapEntry(
                key: .text("attStmt"), value: .map(statement.map { CBORMapEntry(key: .text($0.0), value: $0.1) })),
            CBORMapEntry(key: .text("authData"), value: .bytes(authenticatorData)),
        ]).encoded()
    }

    /// The modulus and exponent of a PKCS #1 `RSAPublicKey` (SEQUENCE of two INTEGERs).
    private static func rsaComponents(pkcs1 der: [UInt8]) throws -> COSEKey {
        var index = 0
        func length() -> Int {
            let first = der[index]
            index += 1
            guard first & 0x80 != 0 else { return Int(first) }
            var value = 0
            for _ in 0..<Int(first & 0x7F) {
                value = value << 8 | Int(der[index])
                index += 1
            }
            return value
        }
        func integer() -> [UInt8] {
            index += 1  // INTEGER tag
            let count = length()
            defer { index += count }
            return Array(der[index..<(index + count)].drop { $0 == 0 })
        }
        index += 1  // SEQUENCE tag
        _ = length()
        let modulus = integer()
        return .rsa(n: modulus, e: integer())
    }
}
