// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
public import Hummingbird
import NIOCore
import VettIDCore

/// Enforces the request body limit (413 `payload_too_large`, also for chunked bodies that grow past it) and
/// the JSON content type for requests that carry a body (415 `unsupported_media_type`), and refuses the literals
/// `JSONLiteralScanner` finds (400 `invalid_request` naming the field). The body is collected here, once, so
/// handlers see a bounded buffer.
///
/// Exempt: the member portal's routes, which read their own forms (`PortalCSRFMiddleware`), and the Gate proxy's
/// (``GateProxy/pathPrefix``), whose bodies stream to the upstream unbuffered under the proxy's own limit
/// (`gate_proxy_max_body_bytes`).
public struct RequestBodyMiddleware: RouterMiddleware {
    public typealias Context = AppRequestContext
    let maxBytes: Int

    public init(maxBytes: Int) { self.maxBytes = maxBytes }

    /// The member portal reads its own HTML forms (``PortalCSRFMiddleware``, bounded and CSRF-checked there).
    static func isPortal(_ path: String) -> Bool { path == "/portal" || path.hasPrefix("/portal/") }

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        if request.uri.path.hasPrefix(GateProxy.pathPrefix) || Self.isPortal(request.uri.path) {
            return try await next(request, context)
        }
        var request = request
        let tooLarge = APIFailure(
            .contentTooLarge, .payloadTooLarge, "the request body is larger than \(maxBytes) bytes")
        if let length = request.headers[.contentLength].flatMap(Int.init), length > maxBytes { throw tooLarge }
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: maxBytes)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw tooLarge
        } catch is NIOTooManyBytesError {
            // A chunked body (no Content-Length) that grows past the limit while it is collected.
            throw tooLarge
        }
        if buffer.readableBytes > 0 {
            guard request.headers.mediaType == "application/json" else {
                throw APIFailure(
                    .unsupportedMediaType, .unsupportedMediaType, "the request body must be application/json")
            }
            switch JSONLiteralScanner.scan(buffer.readableBytesView) {
            case .none:
                break
            case .null(let member):
                throw APIFailure.invalidRequest(
                    "\(member.map { "field `\($0)`" } ?? "the body") must not be null (leave optional fields out)")
            case .integerOutOfRange(let member):
                throw APIFailure.invalidRequest(
                    "\(member.map { "field `\($0)`" } ?? "the body") is out of range (see the field's minimum and maximum)"
                )
            }
        }
        return try await next(request, context)
    }
}
