// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
public import HTTPTypes
public import OpenAPIRuntime
import VettIDCore

/// Adds `Authorization: <scheme> <access token>` from the ``TokenSession`` (and a `DPoP` proof when a
/// ``DPoPProofProvider`` is configured) to every operation that needs a member token.
///
/// The token is read at send time, so a request retried after a refresh carries the new token. The token
/// endpoints `login`, `refresh` and `signInWithPasskey` get a proof without `ath` (and no `Authorization`), so that the server can
/// bind the issued tokens to the device key.
public struct AuthHeaderMiddleware: ClientMiddleware {
    /// Operations sent without member credentials.
    public static let unauthenticatedOperations: Set<String> = [
        "getHealth", "register", "login", "refresh", "startPasskeySignIn", "signInWithPasskey",
    ]
    /// Token endpoints that carry a DPoP proof (without `ath`) when a proof provider is configured.
    public static let proofOnlyOperations: Set<String> = ["login", "refresh", "signInWithPasskey"]

    let session: TokenSession?
    let proofProvider: (any DPoPProofProvider)?

    /// Creates the middleware.
    /// - Parameters:
    ///   - session: Where the tokens come from; `nil` adds proofs to token endpoints only.
    ///   - proofProvider: Creates DPoP proofs; `nil` sends tokens without proofs.
    public init(session: TokenSession?, proofProvider: (any DPoPProofProvider)? = nil) {
        self.session = session
        self.proofProvider = proofProvider
    }

    /// Adds the credentials and forwards the request.
    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        if Self.proofOnlyOperations.contains(operationID) {
            try await addProof(to: &request, baseURL: baseURL, accessToken: nil)
            return try await next(request, body, baseURL)
        }
        guard !Self.unauthenticatedOperations.contains(operationID),
            request.headerFields[.authorization] == nil,
            let tokens = await session?.current
        else {
            return try await next(request, body, baseURL)
        }
        request.headerFields[.authorization] = "\(tokens.authorizationScheme) \(tokens.accessToken)"
        try await addProof(to: &request, baseURL: baseURL, accessToken: tokens.accessToken)
        return try await next(request, body, baseURL)
    }

    private func addProof(to request: inout HTTPRequest, baseURL: URL, accessToken: String?) async throws {
        guard let proofProvider else { return }
        let url = Self.requestURL(request, baseURL: baseURL)
        do {
            let proof = try await proofProvider.proof(method: request.method, url: url, accessToken: accessToken)
            request.headerFields[HTTPField.Name("DPoP")!] = proof
        } catch {
            throw APIError(code: .invalidDPoPProof, description: "Could not create a DPoP proof.", underlying: error)
        }
    }

    /// The absolute URL of a request relative to the base URL.
    static func requestURL(_ request: HTTPRequest, baseURL: URL) -> URL {
        let base =
            baseURL.absoluteString.hasSuffix("/") ? String(baseURL.absoluteString.dropLast()) : baseURL.absoluteString
        return URL(string: base + (request.path ?? "")) ?? baseURL
    }
}
