public import Foundation
public import HTTPTypes
public import OpenAPIRuntime

/// Adds `Authorization: <scheme> <access token>` from the ``TokenSession`` (and a `DPoP` proof when a
/// ``DPoPProofProvider`` is configured) to every operation that needs a member token.
///
/// The token is read at send time, so a request retried after a refresh carries the new token.
public struct AuthHeaderMiddleware: ClientMiddleware {
    /// Operations sent without member credentials.
    public static let unauthenticatedOperations: Set<String> = ["getHealth", "register", "login", "refresh"]

    let session: TokenSession
    let proofProvider: (any DPoPProofProvider)?

    /// Creates the middleware.
    /// - Parameters:
    ///   - session: Where the tokens come from.
    ///   - proofProvider: Creates DPoP proofs; `nil` sends tokens without proofs.
    public init(session: TokenSession, proofProvider: (any DPoPProofProvider)? = nil) {
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
        guard !Self.unauthenticatedOperations.contains(operationID),
            request.headerFields[.authorization] == nil,
            let tokens = await session.current
        else {
            return try await next(request, body, baseURL)
        }
        var request = request
        request.headerFields[.authorization] = "\(tokens.authorizationScheme) \(tokens.accessToken)"
        if let proofProvider {
            let url = Self.requestURL(request, baseURL: baseURL)
            do {
                let proof = try await proofProvider.proof(method: request.method, url: url, accessToken: tokens.accessToken)
                request.headerFields[HTTPField.Name("DPoP")!] = proof
            } catch {
                throw APIError(code: .invalidDPoPProof, description: "Could not create a DPoP proof.", underlying: error)
            }
        }
        return try await next(request, body, baseURL)
    }

    /// The absolute URL of a request relative to the base URL.
    static func requestURL(_ request: HTTPRequest, baseURL: URL) -> URL {
        let base = baseURL.absoluteString.hasSuffix("/") ? String(baseURL.absoluteString.dropLast()) : baseURL.absoluteString
        return URL(string: base + (request.path ?? "")) ?? baseURL
    }
}
