// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

// Encoding, signing, decoding and verifying NATS JWT v2 tokens (nats-io/jwt v2 claims.go, decoder.go).

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// NATS JWT v2: `base64url(header).base64url(claims).base64url(ed25519 signature)`.
///
/// The header is always `{"typ":"JWT","alg":"ed25519-nkey"}`; the signature is by the `iss` NKey over the
/// ASCII bytes `header.payload`. ``claimsID(_:)`` computes `jti` as nats-io/jwt does: unpadded base32 of
/// SHA-512/256 of the JSON of the standard claims only (keys in the order aud, exp, iat, iss, name, nbf,
/// sub; empty values omitted).
public enum NATSJWT {
    /// The encoded header every NATS JWT v2 carries.
    public static let encodedHeader = Base64URL.encode(Array(#"{"typ":"JWT","alg":"ed25519-nkey"}"#.utf8))

    private struct Header: Decodable {
        let typ: String?
        let alg: String?
    }

    private struct KindProbe: Decodable {
        struct Nats: Decodable { let type: String? }
        let nats: Nats?
    }

    private static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        // Sorted keys give ClaimsData's Go field order for the standard claims (aud, exp, iat, iss, name,
        // nbf, sub); Go does not escape '/'.
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// The `jti` of `claims`: base32(SHA-512/256(JSON of the standard claims without `jti`)).
    public static func claimsID<Body>(_ claims: NATSJWTClaims<Body>) throws(NATSJWTError) -> String {
        let json: Data
        do {
            json = try makeEncoder().encode(NATSJWTClaims<Body>.HashInput(claims: claims))
        } catch {
            throw NATSJWTError(.invalidClaims, "cannot encode claims: \(error)")
        }
        return Base32.encode(SHA512_256.hash(json))
    }

    /// Signs `claims` with `issuer`, setting `iss`, `iat` (to `now` if zero) and `jti`.
    ///
    /// - Parameters:
    ///   - claims: The claims; ``NATSJWTClaims/subject`` must be a key of the body's subject type.
    ///   - issuer: A key pair with its seed, of a type allowed to issue these claims.
    ///   - now: Unix seconds used for `iat` when the claims have none.
    /// - Returns: The compact token.
    public static func encode<Body>(
        _ claims: NATSJWTClaims<Body>,
        signedBy issuer: NKeyPair,
        now: Int64
    ) throws(NATSJWTError) -> String {
        guard Body.issuerTypes.contains(issuer.type) else {
            throw NATSJWTError(.invalidIssuer, "a \(issuer.type) key cannot issue \(Body.claimType) claims")
        }
        guard NKeyPair.isValidPublicKey(claims.subject, type: Body.subjectType) else {
            throw NATSJWTError(.invalidClaims, "the subject must be a \(Body.subjectType) public key")
        }
        var signed = claims
        signed.issuer = issuer.publicKey
        if signed.issuedAt == 0 { signed.issuedAt = now }
        signed.id = try claimsID(signed)
        let payload: Data
        do {
            payload = try makeEncoder().encode(signed)
        } catch {
            throw NATSJWTError(.invalidClaims, "cannot encode claims: \(error)")
        }
        let signingInput = encodedHeader + "." + Base64URL.encode(payload)
        let signature: [UInt8]
        do {
            signature = try issuer.sign(Array(signingInput.utf8))
        } catch {
            throw NATSJWTError(.signingFailed, error.message)
        }
        return signingInput + "." + Base64URL.encode(signature)
    }

    /// Decodes `token`, checks its header, claim kind and issuer type, and verifies its signature with `iss`.
    ///
    /// This does not check expiry; use ``NATSJWTClaims/isValid(at:)``.
    public static func decode<Body>(_ token: String, as _: Body.Type = Body.self) throws(NATSJWTError) -> NATSJWTClaims<
        Body
    > {
        let segments = token.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3,
            let headerBytes = Base64URL.decode(segments[0]),
            let payloadBytes = Base64URL.decode(segments[1]),
            let signature = Base64URL.decode(segments[2])
        else {
            throw NATSJWTError(.malformed, "a NATS JWT has three base64url segments")
        }
        guard let header = try? JSONDecoder().decode(Header.self, from: Data(headerBytes)),
            header.typ?.uppercased() == "JWT", header.alg == "ed25519-nkey"
        else {
            throw NATSJWTError(.unsupportedHeader, "header must be typ JWT, alg ed25519-nkey")
        }
        let kind = (try? JSONDecoder().decode(KindProbe.self, from: Data(payloadBytes)))?.nats?.type
        guard kind == Body.claimType else {
            throw NATSJWTError(.wrongClaimType, "expected \(Body.claimType) claims, got \(kind ?? "none")")
        }
        let claims: NATSJWTClaims<Body>
        do {
            claims = try JSONDecoder().decode(NATSJWTClaims<Body>.self, from: Data(payloadBytes))
        } catch {
            throw NATSJWTError(.invalidClaims, "cannot decode \(Body.claimType) claims")
        }
        let issuerKey: NKeyPair
        do {
            issuerKey = try NKeyPair(publicKey: claims.issuer)
        } catch {
            throw NATSJWTError(.invalidIssuer, "iss is not a public NKey: \(error.code)")
        }
        guard Body.issuerTypes.contains(issuerKey.type) else {
            throw NATSJWTError(.invalidIssuer, "a \(issuerKey.type) key cannot issue \(Body.claimType) claims")
        }
        let signingInput = Array(token.utf8.prefix(segments[0].utf8.count + 1 + segments[1].utf8.count))
        guard issuerKey.verify(signingInput, signature: signature) else {
            throw NATSJWTError(.invalidSignature, "the signature does not verify with iss")
        }
        return claims
    }
}
