// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Client side of RFC 9449: builds DPoP proof JWTs.

import Crypto
public import VettIDCore

#if canImport(Glibc)
    import Glibc
#endif

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Builds DPoP proofs (RFC 9449 §4.2) signed by a ``DPoPSigner``.
///
/// Each proof has the header `{"typ":"dpop+jwt","alg":"ES256","jwk":{…public key…}}` and the claims
/// `jti` (128 random bits, base64url), `htm`, `htu` (the request URI without query and fragment), `iat`
/// (whole seconds), `ath` whenever an access token is passed, and `nonce` whenever one is passed.
public struct DPoPProofBuilder: Sendable {
    /// The key that signs the proofs.
    public let signer: any DPoPSigner
    private let clock: any WallClock

    /// Creates a builder.
    /// - Parameters:
    ///   - signer: the device key.
    ///   - clock: the clock used for `iat`; injectable for tests.
    /// The protected header `{"typ":"dpop+jwt","alg":"ES256","jwk":…}`, base64url-encoded once: it is the same
    /// for every proof of this signer.
    private let encodedHeader: String
    /// The `ath` of the last access token: a client sends the same token with many proofs.
    private let athCache = AccessTokenHashCache()

    public init(signer: any DPoPSigner, clock: any WallClock = SystemWallClock()) {
        self.signer = signer
        self.clock = clock
        let header = JSONValue.object([
            ("typ", .string("dpop+jwt")), ("alg", .string(ES256.algorithm)), ("jwk", signer.publicJWK.json),
        ])
        self.encodedHeader = Base64URL.encode(header.serialized())
    }

    /// `base64url(SHA-256(ASCII(accessToken)))`, the `ath` claim (RFC 9449 §4.2).
    public static func accessTokenHash(_ accessToken: String) -> String {
        var token = accessToken
        return token.withUTF8 { Base64URL.encode(SHA256.hash(data: UnsafeRawBufferPointer($0))) }
    }

    /// 128 bits from the system's CSPRNG for a `jti`: one `getentropy` call on Linux (where each draw of
    /// `SystemRandomNumberGenerator` is a system call of its own), two draws elsewhere (a user-space generator).
    static func random128() -> (UInt64, UInt64) {
        #if canImport(Glibc)
            var words: (UInt64, UInt64) = (0, 0)
            if withUnsafeMutableBytes(of: &words, { getentropy($0.baseAddress, 16) }) == 0 { return words }
        #endif
        var generator = SystemRandomNumberGenerator()
        return (generator.next(), generator.next())
    }

    /// Builds and signs a proof for a `URL`; the same as the `String` overload with `url.absoluteString`.
    public func proof(method: String, url: URL, accessToken: String? = nil, nonce: String? = nil)
        async throws(DPoPError) -> String
    {
        try await proof(method: method, url: url.absoluteString, accessToken: accessToken, nonce: nonce)
    }

    /// Builds and signs a proof.
    /// - Parameters:
    ///   - method: the HTTP method, as sent (for example `GET`).
    ///   - url: the absolute request URL; query and fragment are removed for `htu`.
    ///   - accessToken: the access token sent with the request in `Authorization: DPoP`, if any.
    ///   - nonce: the latest `DPoP-Nonce` from this server, if any.
    /// - Returns: the compact JWS for the `DPoP` header.
    public func proof(method: String, url: String, accessToken: String? = nil, nonce: String? = nil)
        async throws(DPoPError) -> String
    {
        guard !method.isEmpty, method.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw DPoPError(.cannotBuildProof, "the HTTP method is empty or not a token")
        }
        let htu = DPoPTargetURI.stripQueryAndFragment(url)
        guard DPoPTargetURI.normalize(htu) != nil else {
            throw DPoPError(.cannotBuildProof, "the request URL is not an absolute URI with an authority")
        }
        let random = Self.random128()
        let jti = withUnsafeBytes(of: (random.0.littleEndian, random.1.littleEndian)) { Base64URL.encode($0) }

        // The claims, written straight into bytes in the documented order (the same bytes `JSONValue.serialized()`
        // gives for them): a proof is built per request, so no intermediate values.
        var payload = [UInt8]()
        payload.reserveCapacity(160 + htu.utf8.count + (nonce?.utf8.count ?? 0))
        payload.append(contentsOf: #"{"jti":""#.utf8)
        payload.append(contentsOf: jti.utf8)
        payload.append(contentsOf: #"","htm":"#.utf8)
        JSONValue.writeString(method, into: &payload)
        payload.append(contentsOf: #","htu":"#.utf8)
        JSONValue.writeString(htu, into: &payload)
        payload.append(contentsOf: #","iat":"#.utf8)
        payload.append(contentsOf: String(Int64(clock.now().timeIntervalSince1970.rounded(.down))).utf8)
        if let accessToken {
            payload.append(contentsOf: #","ath":""#.utf8)
            payload.append(contentsOf: athCache.hash(of: accessToken).utf8)
            payload.append(UInt8(ascii: "\""))
        }
        if let nonce {
            payload.append(contentsOf: #","nonce":"#.utf8)
            JSONValue.writeString(nonce, into: &payload)
        }
        payload.append(UInt8(ascii: "}"))
        do {
            return try await ES256.compactJWS(encodedHeader: encodedHeader, payload: payload, signer: signer)
        } catch {
            throw DPoPError(.cannotBuildProof, "the signer failed")
        }
    }
}

/// Remembers the `ath` of the last access token hashed, so a run of proofs for one token hashes it once.
final class AccessTokenHashCache: Sendable {
    private let last = LockedValue<(token: String, hash: String)?>(nil)

    func hash(of token: String) -> String {
        if let hit = last.withLock({ $0 }), hit.token == token { return hit.hash }
        let hash = DPoPProofBuilder.accessTokenHash(token)
        last.withLock { $0 = (token, hash) }
        return hash
    }
}
