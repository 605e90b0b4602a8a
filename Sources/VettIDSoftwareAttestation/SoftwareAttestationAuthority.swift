// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import VettIDAttestation
import VettIDVerification
public import X509

// A test certificate authority that stands in for Apple's App Attest CA off Apple hardware.

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A root and intermediate CA, minted in process, that issue App Attest-format credential certificates.
///
/// A server trusts ``rootCertificate`` only when its configuration lists it in
/// `AppAttestVerifier.Configuration.trustedRoots`; production servers list Apple's root alone.
public struct SoftwareAttestationAuthority: Sendable {
    /// The self-signed root to add to a verifier's trusted roots.
    public let rootCertificate: Certificate
    /// The intermediate that signs credential certificates.
    public let intermediateCertificate: Certificate
    let intermediateKey: P256.Signing.PrivateKey
    let validUntil: Date

    /// Mints a root and an intermediate with fresh P-256 keys.
    /// - Parameters:
    ///   - notBefore: the start of validity; defaults to one hour ago.
    ///   - notAfter: the end of validity; defaults to ten years from now.
    ///   - name: the common-name prefix of both certificates.
    public static func generate(
        notBefore: Date = Date().addingTimeInterval(-3600),
        notAfter: Date = Date().addingTimeInterval(10 * 365 * 86400),
        name: String = "VettID Software App Attestation"
    ) throws -> SoftwareAttestationAuthority {
        let rootKey = P256.Signing.PrivateKey()
        let intermediateKey = P256.Signing.PrivateKey()
        let rootName = try DistinguishedName { CommonName("\(name) Root CA") }
        let intermediateName = try DistinguishedName { CommonName("\(name) CA 1") }
        let caExtensions = try Certificate.Extensions {
            Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
            Critical(KeyUsage(keyCertSign: true, cRLSign: true))
        }
        let root = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: .init(rootKey.publicKey),
            notValidBefore: notBefore,
            notValidAfter: notAfter,
            issuer: rootName,
            subject: rootName,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: caExtensions,
            issuerPrivateKey: .init(rootKey)
        )
        let intermediate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: .init(intermediateKey.publicKey),
            notValidBefore: notBefore,
            notValidAfter: notAfter,
            issuer: rootName,
            subject: intermediateName,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: caExtensions,
            issuerPrivateKey: .init(rootKey)
        )
        return SoftwareAttestationAuthority(
            rootCertificate: root,
            intermediateCertificate: intermediate,
            intermediateKey: intermediateKey,
            validUntil: notAfter
        )
    }

    /// Issues a credential certificate for `publicKey` carrying `nonce` in extension 1.2.840.113635.100.8.2.
    /// A `nil` nonce leaves the extension out (for negative tests).
    func credentialCertificate(for publicKey: P256.Signing.PublicKey, nonce: [UInt8]?, notBefore: Date, notAfter: Date)
        throws -> Certificate
    {
        let keyID = Array(SHA256.hash(data: publicKey.x963Representation))
        let subject = try DistinguishedName { CommonName(keyID.map { String($0, radix: 16) }.joined()) }
        var extensionList: [Certificate.Extension] = []
        if let nonce {
            extensionList.append(
                Certificate.Extension(
                    oid: AppAttestNonceExtension.oid,
                    critical: false,
                    value: ArraySlice(try AppAttestNonceExtension.extensionValue(nonce: nonce))
                )
            )
        }
        let extensions = try Certificate.Extensions(extensionList)
        return try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: .init(publicKey),
            notValidBefore: notBefore,
            notValidAfter: min(notAfter, validUntil),
            issuer: intermediateCertificate.subject,
            subject: subject,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: extensions,
            issuerPrivateKey: .init(intermediateKey)
        )
    }
}
