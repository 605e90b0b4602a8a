// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore
public import VettIDCrypto

// Server side of RFC 9449: verifies DPoP proofs with every check of §4.3, in order.

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Verifies DPoP proofs (RFC 9449 §4.3, §7.1, §11).
///
/// The checks run in this order, each refusal with its own `DPoPError.Code`:
/// 1. exactly one `DPoP` header, at most ``Configuration/maxProofBytes``, a well-formed compact JWS;
/// 2. `typ` is `dpop+jwt` (a media type, so compared case-insensitively; `application/dpop+jwt` also matches);
/// 3. `alg` is in the allowlist and the `jwk` key type and curve match it;
/// 4. `jwk` has no private members;
/// 5. the signature verifies with `jwk`;
/// 6. `jti`, `htm`, `htu`, `iat` are present; `htm` equals the method; `htu` equals the request URI
///    after `DPoPTargetURI.normalize(_:)` of both;
/// 7. `iat` is within ``Configuration/maxAge`` in the past and ``Configuration/maxFutureSkew`` ahead;
/// 8. the nonce: validated whenever present, and required when ``Configuration/requireNonce`` is set;
/// 9. `jti` is not too long and was not accepted before for this URI;
/// 10. with an access token, `ath` is its hash; with a bound token, `cnf.jkt` is the key's thumbprint.
///
/// The `jti` is recorded only when every check passed, atomically, so a refused proof does not use it up
/// and two concurrent copies of one proof cannot both pass.
public struct DPoPVerifier: Sendable {
    /// The settings.
    public let configuration: Configuration
    private let replayCache: any DPoPReplayCache
    private let nonceValidator: (any DPoPNonceValidator)?
    private let clock: any WallClock
    private let keys = DPoPKeyCache()

    /// Creates a verifier.
    /// - Parameters:
    ///   - configuration: the settings.
    ///   - replayCache: where accepted `jti`s are recorded.
    ///   - nonceValidator: checks `nonce` claims; without one, any proof carrying a nonce is refused as
    ///     `DPoPError.Code.nonceInvalid` and ``Configuration/requireNonce`` refuses every proof.
    ///   - clock: the clock; injectable for tests.
    public init(
        configuration: Configuration = Configuration(),
        replayCache: any DPoPReplayCache,
        nonceValidator: (any DPoPNonceValidator)? = nil,
        clock: any WallClock = SystemWallClock()
    ) {
        self.configuration = configuration
        self.replayCache = replayCache
        self.nonceValidator = nonceValidator
        self.clock = clock
    }

    /// Verifies the proof of `request`, records its `jti`, and returns what it proved.
    public func verify(_ request: DPoPRequest) async throws(DPoPError) -> VerifiedDPoPProof {
        let now = clock.now()

        // 1. One header, bounded size, well-formed JWS.
        guard let proof = request.proofHeaderValues.first else { throw DPoPError(.missingProof, "no DPoP header") }
        guard request.proofHeaderValues.count == 1 else {
            throw DPoPError(.multipleProofs, "more than one DPoP header")
        }
        guard proof.utf8.count <= configuration.maxProofBytes else {
            throw DPoPError(.proofTooLarge, "the proof exceeds \(configuration.maxProofBytes) bytes")
        }
        let jws: CompactJWS
        do throws(JOSEError) {
            jws = try CompactJWS(parsing: proof)
        } catch {
            throw DPoPError(.malformedProof, error.reason)
        }
        if jws.header["crit"] != nil { throw DPoPError(.malformedProof, "crit header parameters are not supported") }

        // 2. typ.
        guard let typ = jws.header["typ"]?.stringValue, Self.isDPoPType(typ) else {
            throw DPoPError(.invalidType, "typ must be dpop+jwt")
        }

        // 3. alg allowlist and key type.
        guard let alg = jws.header["alg"]?.stringValue, configuration.allowedAlgorithms.contains(alg),
            alg == ES256.algorithm
        else { throw DPoPError(.unsupportedAlgorithm, "alg is not in the allowlist") }
        guard let jwkJSON = jws.header["jwk"], jwkJSON.objectMembers != nil else {
            throw DPoPError(.invalidKey, "jwk is missing or not an object")
        }
        guard jwkJSON["kty"]?.stringValue == "EC", jwkJSON["crv"]?.stringValue == "P-256" else {
            throw DPoPError(.keyAlgorithmMismatch, "ES256 needs an EC P-256 jwk")
        }

        // 4. No private members.
        guard jwkJSON.objectMembers?.contains(where: { P256PublicJWK.privateMemberNames.contains($0.0) }) == false
        else {
            throw DPoPError(.privateKeyInJWK, "jwk carries private key material")
        }
        guard let x = jwkJSON["x"]?.stringValue, let y = jwkJSON["y"]?.stringValue else {
            throw DPoPError(.invalidKey, "x or y is missing or not a string")
        }
        let key: DPoPKeyCache.Entry
        do throws(JOSEError) {
            key = try keys.entry(x: x, y: y)
        } catch {
            throw DPoPError(.invalidKey, error.reason)
        }
        let jwk = key.jwk

        // 5. Signature.
        guard ES256.isValid(signature: jws.signature, for: jws.signingInput, publicKey: jwk.publicKey) else {
            throw DPoPError(.invalidSignature, "the signature does not verify with jwk")
        }

        // 6. Required claims, htm, htu.
        let claims = jws.payload
        let jti = try Self.requiredString("jti", in: claims)
        let htm = try Self.requiredString("htm", in: claims)
        let htu = try Self.requiredString("htu", in: claims)
        guard let iatValue = claims["iat"] else { throw DPoPError(.missingClaim, "iat is missing") }
        guard let iat = iatValue.doubleValue, iat.isFinite else {
            throw DPoPError(.invalidClaim, "iat is not a number")
        }
        guard htm == request.method else { throw DPoPError(.methodMismatch, "htm does not match the request method") }
        // Normalisation is a pure function: when the claim is the request URI byte for byte (the usual case), one
        // normalisation serves both.
        guard let requestURI = DPoPTargetURI.normalize(request.targetURI) else {
            throw DPoPError(.invalidTargetURI, "the request URI is not a valid absolute URI")
        }
        guard let claimedURI = htu == request.targetURI ? requestURI : DPoPTargetURI.normalize(htu) else {
            throw DPoPError(.invalidTargetURI, "htu is not a valid URI")
        }
        guard claimedURI == requestURI else {
            throw DPoPError(.targetURIMismatch, "htu does not match the request URI")
        }

        // 7. iat window.
        let nowSeconds = now.timeIntervalSince1970
        guard iat >= nowSeconds - configuration.maxAge.secondsValue else {
            let window = Self.wholeSeconds(configuration.maxAge.secondsValue)
            throw DPoPError(
                .issuedTooLongAgo,
                "iat is \(Self.wholeSeconds(nowSeconds - iat)) s before the server's time (window \(window) s)")
        }
        guard iat <= nowSeconds + configuration.maxFutureSkew.secondsValue else {
            let skew = Self.wholeSeconds(configuration.maxFutureSkew.secondsValue)
            throw DPoPError(
                .issuedInFuture,
                "iat is \(Self.wholeSeconds(iat - nowSeconds)) s after the server's time (skew \(skew) s)")
        }

        // 8. Nonce.
        var nonce: String? = nil
        if let nonceValue = claims["nonce"] {
            guard let value = nonceValue.stringValue else { throw DPoPError(.invalidClaim, "nonce is not a string") }
            guard let nonceValidator else { throw DPoPError(.nonceInvalid, "this server did not issue a nonce") }
            switch await nonceValidator.validate(nonce: value, now: now) {
            case .valid: nonce = value
            case .stale: throw DPoPError(.nonceStale, "the nonce has expired")
            case .invalid: throw DPoPError(.nonceInvalid, "the nonce was not issued by this server")
            }
        } else if configuration.requireNonce {
            throw DPoPError(.nonceRequired, "the server requires a nonce")
        }

        // 9. Replay (checked here, recorded after every check passed).
        guard jti.utf8.count <= configuration.maxJTIBytes else { throw DPoPError(.jtiTooLong, "jti is too long") }
        let replayKey = DPoPReplayKey(normalizedTargetURI: requestURI, jti: jti)
        if await replayCache.contains(replayKey, now: now) {
            throw DPoPError(.replayedProof, "this proof was already used")
        }

        // 10. Access token binding.
        if let accessToken = request.accessToken {
            guard let athValue = claims["ath"] else { throw DPoPError(.accessTokenHashMissing, "ath is missing") }
            guard let ath = athValue.stringValue else { throw DPoPError(.invalidClaim, "ath is not a string") }
            guard ath == DPoPProofBuilder.accessTokenHash(accessToken) else {
                throw DPoPError(.accessTokenHashMismatch, "ath does not match the access token")
            }
        }
        if let boundKeyThumbprint = request.boundKeyThumbprint, boundKeyThumbprint != key.thumbprint {
            throw DPoPError(.keyBindingMismatch, "the token is bound to another key")
        }

        // Record the jti until it can no longer pass the iat check.
        let expiresAt = Date(timeIntervalSince1970: iat + configuration.maxAge.secondsValue + 1)
        guard await replayCache.insert(replayKey, expiresAt: expiresAt, now: now) else {
            throw DPoPError(.replayedProof, "this proof was already used")
        }
        return VerifiedDPoPProof(
            jwk: jwk,
            thumbprint: key.thumbprint,
            jti: jti,
            issuedAt: Date(timeIntervalSince1970: iat),
            nonce: nonce,
            claims: claims
        )
    }

    /// `typ` is a media type: compared case-insensitively, with the optional `application/` prefix
    /// (RFC 7515 §4.1.9).
    static func isDPoPType(_ typ: String) -> Bool {
        if typ == "dpop+jwt" { return true }
        let lowered = typ.lowercased()
        return lowered == "dpop+jwt" || lowered == "application/dpop+jwt"
    }

    /// A whole number of seconds for a refusal's reason; an `iat` can be any finite number, so values past
    /// Int64's range are written as a bound instead of trapping.
    static func wholeSeconds(_ seconds: Double) -> String {
        Int64(exactly: seconds.rounded(.down)).map(String.init)
            ?? (seconds < 0 ? "-9223372036854775808" : "9223372036854775807")
    }

    private static func requiredString(_ name: String, in claims: JSONValue) throws(DPoPError) -> String {
        guard let value = claims[name] else { throw DPoPError(.missingClaim, "\(name) is missing") }
        guard let string = value.stringValue, !string.isEmpty else {
            throw DPoPError(.invalidClaim, "\(name) is not a non-empty string")
        }
        return string
    }
}
