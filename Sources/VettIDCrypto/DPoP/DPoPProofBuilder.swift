// Client side of RFC 9449: builds DPoP proof JWTs.

import Crypto

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
    private let now: @Sendable () -> Date

    /// Creates a builder.
    /// - Parameters:
    ///   - signer: the device key.
    ///   - now: the clock used for `iat`; injectable for tests.
    /// The protected header `{"typ":"dpop+jwt","alg":"ES256","jwk":…}`, base64url-encoded once: it is the same
    /// for every proof of this signer.
    private let encodedHeader: String

    public init(signer: any DPoPSigner, now: @escaping @Sendable () -> Date = { Date() }) {
        self.signer = signer
        self.now = now
        let header = JSONValue.object([
            ("typ", .string("dpop+jwt")), ("alg", .string(ES256.algorithm)), ("jwk", signer.publicJWK.json),
        ])
        self.encodedHeader = Base64URL.encode(header.serialized())
    }

    /// `base64url(SHA-256(ASCII(accessToken)))`, the `ath` claim (RFC 9449 §4.2).
    public static func accessTokenHash(_ accessToken: String) -> String {
        Base64URL.encode(SHA256.hash(data: Array(accessToken.utf8)))
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
        // 128 random bits from two draws of the system generator (one draw per byte would cost 16 system calls).
        var generator = SystemRandomNumberGenerator()
        var jtiBytes = [UInt8]()
        jtiBytes.reserveCapacity(16)
        for _ in 0..<2 {
            let word: UInt64 = generator.next()
            for shift in stride(from: 0, to: 64, by: 8) {
                jtiBytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
            }
        }

        var claims: [(String, JSONValue)] = [
            ("jti", .string(Base64URL.encode(jtiBytes))),
            ("htm", .string(method)),
            ("htu", .string(htu)),
            ("iat", .integer(Int64(now().timeIntervalSince1970.rounded(.down)))),
        ]
        if let accessToken { claims.append(("ath", .string(Self.accessTokenHash(accessToken)))) }
        if let nonce { claims.append(("nonce", .string(nonce))) }
        do {
            return try await ES256.compactJWS(encodedHeader: encodedHeader, payload: .object(claims), signer: signer)
        } catch {
            throw DPoPError(.cannotBuildProof, "the signer failed")
        }
    }
}
