// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import Logging
import VettIDCore
import VettIDCrypto
public import VettIDVerification

/// Verifies the DPoP proof (RFC 9449) of a request the way this server requires it, and answers failures the
/// way the RFC asks: 400 at token endpoints, 401 with `WWW-Authenticate: DPoP …` at resources, and a fresh
/// `DPoP-Nonce` whenever a nonce is missing, wrong or stale.
///
/// Nonces are mandatory and stateless (`DPoPNonceIssuer` of VettIDVerification: an HMAC of the time window under
/// a key derived from the master key), so every instance accepts every other's. `htu` is checked against the
/// configured public origin plus the request path, never against a client-supplied Host header.
public struct DPoPGuard: Sendable {
    /// Where the proof is presented.
    public enum Endpoint: Sendable {
        /// Login, refresh, Gate `/token`: errors are 400 `{"error": …}`.
        case token
        /// Anything that takes an access token: errors are 401 with `WWW-Authenticate`.
        case resource
    }

    let verifier: DPoPVerifier
    let nonces: DPoPNonceIssuer
    let origin: PublicOrigin
    let clock: any WallClock

    /// - Parameters:
    ///   - replayStore: Where accepted proofs are recorded for every instance (the main store, or on SQLite a
    ///     database of its own that commits without an fsync); an in-memory front refuses this instance's replays.
    init(keys: ServerKeys, replayStore: any SQLStore, origin: PublicOrigin, clock: any WallClock) {
        let nonces = DPoPNonceIssuer(key: keys.derivedKey(purpose: "dpop-nonce"))
        self.nonces = nonces
        self.origin = origin
        self.clock = clock
        self.verifier = DPoPVerifier(
            configuration: .init(requireNonce: true),
            replayCache: LayeredDPoPReplayCache(backend: SQLDPoPReplayCache(store: replayStore)),
            nonceValidator: nonces,
            clock: clock
        )
    }

    /// A nonce valid now, for a `DPoP-Nonce` header.
    public func currentNonce() -> String { nonces.issue(now: clock.now()) }

    /// Whether the request carries a `DPoP` header at all.
    public static func hasProof(_ request: RequestInfo) -> Bool { !request.headers(.dpop).isEmpty }

    /// Verifies the request's proof. On success a fresh `DPoP-Nonce` is added to the response, so clients
    /// always hold a current one. `accessToken` is required at resources (for `ath`); `boundJKT` is the
    /// token's `cnf.jkt`, which must equal the proof key's thumbprint.
    public func verify(
        _ request: RequestInfo, endpoint: Endpoint, accessToken: String? = nil, boundJKT: String? = nil
    ) async throws -> VerifiedDPoPProof {
        let target = origin.url + (request.head.path.map(Self.pathWithoutQuery) ?? "/")
        let dpopRequest = DPoPRequest(
            proofHeaderValues: request.headers(.dpop),
            method: request.head.method.rawValue,
            targetURI: target,
            accessToken: accessToken,
            boundKeyThumbprint: boundJKT
        )
        do {
            let proof = try await verifier.verify(dpopRequest)
            request.responseHeaders.append(.dpopNonce, currentNonce())
            return proof
        } catch {
            throw failure(for: error, endpoint: endpoint, request: request)
        }
    }

    private func failure(for error: DPoPError, endpoint: Endpoint, request: RequestInfo) -> APIFailure {
        request.logger.notice(
            "DPoP proof refused", metadata: ["dpop_error": "\(error.code.rawValue)", "dpop_reason": "\(error.reason)"])
        let isNonce = error.isNonceChallenge
        let code: APIFailure.Code = isNonce ? .useDPoPNonce : .invalidDPoPProof
        let message: String
        if isNonce {
            message = "a DPoP proof with the server's current nonce is required"
        } else if error.code == .issuedTooLongAgo || error.code == .issuedInFuture {
            // The offset tells a client with a wrong clock what to fix; it holds nothing the client did not send.
            message = "the DPoP proof was refused (\(error.code.rawValue): \(error.reason))"
        } else {
            message = "the DPoP proof was refused (\(error.code.rawValue))"
        }
        var headers: HTTPFields = [.dpopNonce: currentNonce(), .cacheControl: "no-store"]
        switch endpoint {
        case .token:
            return APIFailure(.badRequest, code, message, headers: headers)
        case .resource:
            if error.code == .keyBindingMismatch {
                headers[.wwwAuthenticate] = #"DPoP error="invalid_token", algs="ES256""#
                return APIFailure(
                    .unauthorized, .invalidToken, "the access token is bound to another key", headers: headers)
            }
            headers[.wwwAuthenticate] = #"DPoP error="\#(code.rawValue)", algs="ES256""#
            return APIFailure(.unauthorized, code, message, headers: headers)
        }
    }

    static func pathWithoutQuery(_ path: String) -> String {
        let end = path.firstIndex { $0 == "?" || $0 == "#" } ?? path.endIndex
        let trimmed = String(path[..<end])
        return trimmed.isEmpty ? "/" : trimmed
    }
}
