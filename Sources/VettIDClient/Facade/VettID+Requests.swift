// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
import HTTPTypes
import OpenAPIRuntime
import VettIDCore

// The app's own backend routes on the same server, as the signed-in member (the auth seed's `APIService`):
// `Authorization: DPoP <member token>` with a proof, retries of idempotent requests, one refresh and replay on
// 401, typed JSON decoding, and every failure an ``APIError``.
extension VettID {
    /// The largest answer body read (10 MiB).
    public nonisolated static let maximumResponseBodySize = 10 * 1024 * 1024

    /// `GET path` as the signed-in member; the JSON answer decoded as `T`.
    /// - Parameters:
    ///   - path: Relative to the base URL (`/api/profile?full=1`).
    ///   - type: The type the JSON answer decodes to.
    ///   - decoder: The decoder for the answer.
    /// - Throws: ``APIError``: the server's code, `http_error` with the status, `invalid_request` for a path that is not
    ///   relative, `invalid_response` for an answer that is not a `T`, `sign_in_required`-class codes from the session.
    public nonisolated func get<T: Decodable>(
        _ path: String, as type: T.Type = T.self, decoder: JSONDecoder = JSONDecoder()
    ) async throws(APIError) -> T {
        try await send(.get, path, body: nil, decoder: decoder)
    }

    /// `POST path` with `body` as JSON, as the signed-in member; the JSON answer decoded as `T`.
    /// - Parameters:
    ///   - path: Relative to the base URL.
    ///   - body: The request body, encoded as JSON.
    ///   - type: The type the JSON answer decodes to.
    ///   - encoder: The encoder for `body`.
    ///   - decoder: The decoder for the answer.
    /// - Throws: ``APIError`` (see ``get(_:as:decoder:)``; `invalid_request` when `body` cannot be encoded).
    public nonisolated func post<Body: Encodable, T: Decodable>(
        _ path: String, body: Body, as type: T.Type = T.self, encoder: JSONEncoder = JSONEncoder(),
        decoder: JSONDecoder = JSONDecoder()
    ) async throws(APIError) -> T {
        let data: Data
        do {
            data = try encoder.encode(body)
        } catch {
            throw APIError(
                code: .invalidRequest, description: "The request body could not be encoded.", underlying: error)
        }
        return try await send(.post, path, body: data, decoder: decoder)
    }

    private nonisolated func send<T: Decodable>(
        _ method: HTTPRequest.Method, _ path: String, body: Data?, decoder: JSONDecoder
    ) async throws(APIError) -> T {
        guard path.hasPrefix("/"), !path.hasPrefix("//"), !path.contains("://") else {
            throw APIError(
                code: .invalidRequest, description: "The path must be relative to the base URL and start with /.")
        }
        var request = HTTPRequest(method: method, scheme: nil, authority: nil, path: path)
        request.headerFields[.accept] = "application/json"
        if body != nil { request.headerFields[.contentType] = "application/json" }
        let (_, responseBody) = try await memberSession.send(request, body: body.map { HTTPBody($0) })
        var data = Data()
        do {
            if let responseBody { data = try await Data(collecting: responseBody, upTo: Self.maximumResponseBodySize) }
        } catch {
            throw APIError(code: .invalidResponse, description: "The answer could not be read.", underlying: error)
        }
        do {
            return try decoder.decode(T.self, from: data)
        } catch {
            throw APIError(
                code: .invalidResponse, description: "The answer to \(method) \(path) is not a \(T.self).",
                underlying: error)
        }
    }
}
