// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
public import HTTPTypes
public import OpenAPIRuntime

/// Remembers every `DPoP-Nonce` a server sends and retries a request once when the server demands a nonce.
///
/// Every response's `DPoP-Nonce` (2xx too, RFC 9449 §8.2) is recorded in the ``DPoPNonceStore`` for the request's
/// origin. When a request that carried a `DPoP` proof is answered with a nonce challenge (400
/// `{"error":"use_dpop_nonce"}` at token endpoints, 401 `WWW-Authenticate: DPoP error="use_dpop_nonce"` at
/// resources; see ``DPoPNonceChallenge``), the proof is signed again (the provider now finds the new nonce; `ath`
/// again when an access token goes with the request) and the request is sent once more. A second challenge is
/// returned as it is, so a misbehaving server cannot cause a loop. Requests whose body can be read only once are
/// not replayed.
///
/// It must see raw responses: place it after (inside) ``ErrorMappingMiddleware``, or wrap the transport with
/// ``DPoPNonceTransport`` where the chain is fixed.
public struct DPoPNonceMiddleware: ClientMiddleware {
    /// The largest 400 body read to look for `use_dpop_nonce`.
    static let maximumChallengeBodySize = 64 * 1024

    /// Where nonces are recorded.
    public let nonceStore: DPoPNonceStore
    let proofProvider: any DPoPProofProvider

    /// Creates the middleware.
    /// - Parameters:
    ///   - nonceStore: Where nonces are recorded (the same store the proof provider reads).
    ///   - proofProvider: Signs the retried request's proof.
    public init(nonceStore: DPoPNonceStore, proofProvider: any DPoPProofProvider) {
        self.nonceStore = nonceStore
        self.proofProvider = proofProvider
    }

    /// Creates the middleware for a ``DeviceDPoPProofProvider`` and its nonce store.
    public init(proofProvider: DeviceDPoPProofProvider) {
        self.init(nonceStore: proofProvider.nonceStore, proofProvider: proofProvider)
    }

    /// Sends the request, records the nonce, and retries once on a nonce challenge.
    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let url = AuthHeaderMiddleware.requestURL(request, baseURL: baseURL)
        let (response, responseBody) = try await next(request, body, baseURL)
        await record(response, url: url)
        guard request.headerFields[DPoPNonceChallenge.proofField] != nil,
            response.status.code == 400 || response.status.code == 401,
            response.headerFields[DPoPNonceChallenge.nonceField] != nil
        else { return (response, responseBody) }

        var bufferedBody = responseBody
        var bytes: Data?
        if response.status.code == 400, let responseBody {
            if case .known(let length) = responseBody.length, length > Self.maximumChallengeBodySize {
                return (response, responseBody)
            }
            let collected = try await Data(collecting: responseBody, upTo: Self.maximumChallengeBodySize)
            bytes = collected
            bufferedBody = HTTPBody(collected)
        }
        let replayable = body == nil || body?.iterationBehavior == .multiple
        guard replayable, DPoPNonceChallenge.isNonceChallenge(response, body: bytes) else {
            return (response, bufferedBody)
        }
        var retried = request
        retried.headerFields[DPoPNonceChallenge.proofField] = try await proofProvider.proof(
            method: request.method,
            url: url,
            accessToken: Self.accessToken(in: request.headerFields[.authorization])
        )
        let (retryResponse, retryBody) = try await next(retried, body, baseURL)
        await record(retryResponse, url: url)
        return (retryResponse, retryBody)
    }

    private func record(_ response: HTTPResponse, url: URL) async {
        if let nonce = response.headerFields[DPoPNonceChallenge.nonceField] {
            await nonceStore.record(nonce, for: url)
        }
    }

    /// The token of an `Authorization: DPoP <token>` (or `Bearer <token>`) value, for `ath`.
    static func accessToken(in authorization: String?) -> String? {
        guard let authorization, let space = authorization.firstIndex(of: " ") else { return nil }
        let scheme = authorization[..<space].lowercased()
        guard scheme == "dpop" || scheme == "bearer" else { return nil }
        let token = authorization[authorization.index(after: space)...].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }
}
