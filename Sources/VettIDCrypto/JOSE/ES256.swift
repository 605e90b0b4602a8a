// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// ES256 (RFC 7518 §3.4): ECDSA P-256 with SHA-256, signatures as raw r||s.

public import Crypto
import VettIDCore

/// ES256 signing and verification with JOSE's 64-byte raw `r || s` signature format (not DER).
public enum ES256 {
    /// The JOSE `alg` value.
    public static let algorithm = "ES256"

    /// Signs `message` (SHA-256 is applied by the algorithm) and returns the 64-byte `r || s`.
    public static func sign(_ message: [UInt8], with privateKey: P256.Signing.PrivateKey) throws -> [UInt8] {
        Array(try privateKey.signature(for: message).rawRepresentation)
    }

    /// Checks a 64-byte `r || s` signature over `message`; any other length is refused.
    public static func isValid(signature: [UInt8], for message: [UInt8], publicKey: P256.Signing.PublicKey) -> Bool {
        guard signature.count == 64, let parsed = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else {
            return false
        }
        return publicKey.isValidSignature(parsed, for: message)
    }

    /// Builds a compact JWS: serializes `header` and `payload` exactly as given and signs with `signer`.
    public static func compactJWS(header: JSONValue, payload: JSONValue, signer: some DPoPSigner) async throws -> String
    {
        try await compactJWS(encodedHeader: Base64URL.encode(header.serialized()), payload: payload, signer: signer)
    }

    /// Builds a compact JWS over a protected header already base64url-encoded (a signer's fixed header, encoded once).
    public static func compactJWS(encodedHeader: String, payload: JSONValue, signer: some DPoPSigner) async throws
        -> String
    {
        try await compactJWS(encodedHeader: encodedHeader, payload: payload.serialized(), signer: signer)
    }

    /// Builds a compact JWS over a protected header already base64url-encoded and a payload already serialized.
    public static func compactJWS(encodedHeader: String, payload: [UInt8], signer: some DPoPSigner) async throws
        -> String
    {
        var jws = Array(encodedHeader.utf8)
        jws.reserveCapacity(jws.count + 1 + (payload.count * 4 + 2) / 3 + 1 + 86)
        jws.append(UInt8(ascii: "."))
        Base64URL.append(payload, to: &jws)
        let signature = try await signer.sign(jws)
        guard signature.count == 64 else { throw JOSEError(.invalidSignature, "an ES256 signer must return 64 bytes") }
        jws.append(UInt8(ascii: "."))
        Base64URL.append(signature, to: &jws)
        return String(decoding: jws, as: UTF8.self)
    }
}
