// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import SwiftASN1
import X509

/// A private CA and a server certificate for a local nats-server, made with swift-certificates.
///
/// `vettid-server nats-config --tls`, `vettid demo` and the TLS tests use it, so TLS works without openssl or
/// a public CA. Clients trust ``caPEM`` (`NATSTLSConfiguration(rootCertificatesPath:)`).
public struct NATSTLSMaterial: Sendable {
    /// The CA certificate (PEM): what clients trust.
    public let caPEM: String
    /// The server certificate (PEM), valid for `hosts`.
    public let certificatePEM: String
    /// The server's private key (PEM, secret).
    public let privateKeyPEM: String

    /// Generates a CA and a server certificate for `hosts` (IP addresses or DNS names), valid `days` days.
    public static func generate(hosts: [String] = ["127.0.0.1", "localhost"], days: Int = 365) throws -> NATSTLSMaterial
    {
        let now = Date()
        let notBefore = now.addingTimeInterval(-300)
        let notAfter = now.addingTimeInterval(Double(days) * 86_400)
        let caKey = P256.Signing.PrivateKey()
        let serverKey = P256.Signing.PrivateKey()
        let caName = try DistinguishedName { CommonName("VettID local NATS CA") }
        let ca = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(caKey.publicKey),
            notValidBefore: notBefore, notValidAfter: notAfter, issuer: caName, subject: caName,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
            },
            issuerPrivateKey: .init(caKey))
        let names: [GeneralName] = hosts.map { host in
            if let address = Self.ipv4Bytes(host) { return .ipAddress(ASN1OctetString(contentBytes: address[...])) }
            return .dnsName(host)
        }
        let server = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(serverKey.publicKey),
            notValidBefore: notBefore, notValidAfter: notAfter, issuer: caName,
            subject: try DistinguishedName { CommonName(hosts.first ?? "localhost") },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames(names)
            },
            issuerPrivateKey: .init(caKey))
        return NATSTLSMaterial(
            caPEM: try ca.serializeAsPEM().pemString, certificatePEM: try server.serializeAsPEM().pemString,
            privateKeyPEM: serverKey.pemRepresentation)
    }

    /// Writes `ca.pem`, `server-cert.pem` and `server-key.pem` (0600) into `directory`; returns their paths.
    public func write(to directory: String) throws -> (ca: String, certificate: String, key: String) {
        try SecretFile.ensureDirectory(directory)
        let paths = (
            ca: directory + "/ca.pem", certificate: directory + "/server-cert.pem", key: directory + "/server-key.pem"
        )
        try SecretFile.write(Array(caPEM.utf8), to: paths.ca)
        try SecretFile.write(Array(certificatePEM.utf8), to: paths.certificate)
        try SecretFile.write(Array(privateKeyPEM.utf8), to: paths.key)
        return paths
    }

    private static func ipv4Bytes(_ text: String) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        let bytes = parts.compactMap { UInt8($0) }
        return bytes.count == 4 ? bytes : nil
    }
}
