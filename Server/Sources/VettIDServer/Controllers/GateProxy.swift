// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import VettIDCore

/// The streaming Gate proxy: `ANY /proxy/{upstream}/{path...}` is forwarded to the configured upstream for a
/// valid `Authorization: DPoP <gate token>` with a DPoP proof by the token's key (`ath`, `cnf.jkt`, nonce).
///
/// Method, query, headers (minus hop-by-hop, `Host`, `Authorization`, `DPoP`, `Cookie`) and the body are
/// forwarded as they arrive, the upstream API key header is added, and the upstream's status, headers and body
/// stream back. Connect and read timeouts are 504 `upstream_timeout`; an unreachable upstream is 502
/// `upstream_unavailable`; an unknown upstream is 404 `upstream_not_found`. Nothing here logs a header value.
public struct GateProxy: Sendable {
    let configuration: GateConfiguration
    let tokens: GateTokenService
    let dpop: DPoPGuard
    let pools: UpstreamPools

    init(configuration: GateConfiguration, tokens: GateTokenService, dpop: DPoPGuard) {
        self.configuration = configuration
        self.tokens = tokens
        self.dpop = dpop
        self.pools = UpstreamPools(configuration: configuration)
    }

    /// The path prefix of proxied routes (exempt from the JSON body middleware).
    public static let pathPrefix = "/proxy/"

    /// The route of proxied requests.
    static let routePath = "/proxy/:upstream/**"

    /// The methods the proxy forwards.
    static let methods: [HTTPRequest.Method] = [.get, .post, .put, .patch, .delete, .head, .options]

    /// Adds the proxy routes to `routes`.
    func register(on routes: some RouterMethods<AppRequestContext>) {
        for method in Self.methods {
            routes.on(RouterPath(Self.routePath), method: method) { request, context in
                try await self.handle(request, context: context)
            }
        }
    }

    /// Request headers never forwarded (besides those the `Connection` header names).
    static let droppedRequestHeaders: Set<String> = [
        "connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "proxy-connection", "te", "trailer",
        "transfer-encoding", "upgrade", "host", "authorization", "dpop", "cookie", "content-length", "expect",
    ]

    /// Response headers never passed back. `Set-Cookie` among them: the Gate forwards no cookies upstream, and an
    /// upstream's cookie would land on the Gate's own origin, where it could overwrite the member's session cookie.
    static let droppedResponseHeaders: Set<String> = [
        "connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "proxy-connection", "te", "trailer",
        "transfer-encoding", "upgrade", "dpop-nonce", "set-cookie",
    ]

    func handle(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let info = RequestInfo.current else {
            throw APIFailure(.internalServerError, .internalError, "request context missing")
        }
        try await authenticate(info)

        let (name, remainder) = try Self.split(request.head.path ?? "/")
        guard let upstream = configuration.upstreams[name] else {
            throw APIFailure.gate(.notFound, .upstreamNotFound, "no upstream is configured under this name")
        }
        guard let pool = pools[name] else {
            throw Self.failure(for: UpstreamFailure(.connectionFailed), upstream: name, logger: info.logger)
        }
        let contentLength = request.headers[.contentLength].flatMap(Int.init)
        if let contentLength, contentLength > configuration.proxyMaxBodyBytes {
            throw Self.tooLarge(configuration.proxyMaxBodyBytes)
        }
        // The server speaks HTTP/1.1 (no HTTP/2 is configured): a body follows only with Content-Length or
        // Transfer-Encoding. A POST, PUT or PATCH without one goes upstream with `Content-Length: 0` (some servers
        // answer 411 to a bodiless request framed as chunked).
        let hasBody = (contentLength ?? 0) > 0 || request.headers[.transferEncoding] != nil
        let framing: Framing =
            if let contentLength, request.headers[.transferEncoding] == nil {
                .length(contentLength)
            } else if hasBody {
                .chunked
            } else {
                [.post, .put, .patch].contains(request.method) ? .length(0) : .none
            }
        let head = Self.upstreamHead(
            request, endpoint: pool.endpoint, remainder: remainder, upstream: upstream, framing: framing)
        let exceeded = NIOLockedValueBox(false)
        let upload =
            hasBody
            ? GateProxyBody(base: request.body, limit: configuration.proxyMaxBodyBytes, exceeded: exceeded) : nil

        let response: UpstreamResponse
        do {
            response = try await Self.exchange(head, upload: upload, pool: pool)
        } catch {
            await upload?.settle()
            if exceeded.withLockedValue({ $0 }) { throw Self.tooLarge(configuration.proxyMaxBodyBytes) }
            throw Self.failure(for: error, upstream: name, logger: info.logger)
        }
        info.logger.debug(
            "proxied",
            metadata: ["upstream": .string(name), "upstream_status": .stringConvertible(response.head.status.code)])
        let status = HTTPResponse.Status(
            code: Int(response.head.status.code), reasonPhrase: response.head.status.reasonPhrase)
        let headers = Self.returnedHeaders(response.head.headers)
        // The upstream may have answered before reading the whole upload: the response goes out, then the body
        // settles (see GateProxyBody) before the server drains what is left of it.
        switch response.body {
        case .complete(let buffer) where upload == nil:
            return Response(status: status, headers: headers, body: .init(byteBuffer: buffer))
        case .complete(let buffer):
            return Response(
                status: status, headers: headers,
                body: Self.relay(settling: upload, contentLength: buffer.readableBytes) { try await $0.write(buffer) })
        case .streaming(let chunks):
            return Response(
                status: status, headers: headers,
                body: Self.relay(settling: upload, contentLength: nil) { writer in
                    for try await chunk in chunks { try await writer.write(chunk) }
                })
        }
    }

    /// A response body written by `write`, after which (also when it fails) the upload settles.
    private static func relay(
        settling upload: GateProxyBody<RequestBody>?, contentLength: Int?,
        _ write: @escaping @Sendable (inout any ResponseBodyWriter) async throws -> Void
    ) -> ResponseBody {
        ResponseBody(contentLength: contentLength) { writer in
            do {
                try await write(&writer)
                try await writer.finish(nil)
            } catch {
                await upload?.settle()
                throw error
            }
            await upload?.settle()
        }
    }

    /// Sends `head` (and the upload, as it arrives) on a pooled connection and returns the response once its head
    /// arrived. A request with an idempotent method (RFC 9110 §9.2.2) and no body that finds its kept-alive
    /// connection closed by the upstream before any byte of an answer is sent once more on a new connection: the
    /// usual cause is an upstream closing an idle connection as the request went out, and repeating such a request
    /// has the effect of sending it once. Anything else fails with 502 instead of risking a second effect.
    static func exchange(
        _ head: HTTPRequestHead, upload: GateProxyBody<RequestBody>?, pool: UpstreamPool
    ) async throws -> UpstreamResponse {
        var retried = false
        while true {
            let (connection, reused) = try await pool.lease(fresh: retried)
            let response = connection.start(head, hasBody: upload != nil) { reusable in
                pool.release(connection, reusable: reusable)
            }
            if let upload {
                // After start: the body's writes queue behind the head on the connection's event loop.
                Task { await Self.send(upload, on: connection) }
            }
            do {
                return try await response.get()
            } catch let failure as UpstreamFailure
                where failure.kind == .connectionClosed && reused && upload == nil && !retried
                && idempotentMethods.contains(head.method)
            {
                retried = true
            }
        }
    }

    /// The methods whose repetition has the effect of one request (RFC 9110 §9.2.2).
    static let idempotentMethods: [HTTPMethod] = [.GET, .HEAD, .OPTIONS, .TRACE, .PUT, .DELETE]

    /// Streams the request body to the upstream; closes the connection when the body fails (too large, or the
    /// client went away), which fails the exchange.
    private static func send(_ upload: GateProxyBody<RequestBody>, on connection: UpstreamConnection) async {
        do {
            for try await chunk in upload { try await connection.write(chunk) }
            try await connection.end()
        } catch {
            connection.close()
        }
    }

    /// How the forwarded request's body is framed.
    enum Framing {
        case none
        case length(Int)
        case chunked
    }

    /// The request line and headers sent upstream: the base path plus the raw remainder, the forwarded headers,
    /// `Host`, the upstream's API key and the body's framing.
    static func upstreamHead(
        _ request: Request, endpoint: UpstreamEndpoint, remainder: String, upstream: GateUpstream, framing: Framing
    ) -> HTTPRequestHead {
        var uri = endpoint.basePath + remainder
        if uri.isEmpty || uri.hasPrefix("?") { uri = "/" + uri }
        var headers = forwardedHeaders(request.headers)
        headers.add(name: "host", value: endpoint.hostHeader)
        if let header = upstream.apiKeyHeader, let key = upstream.apiKey {
            headers.replaceOrAdd(name: header, value: key)
        }
        switch framing {
        case .none: break
        case .length(let count): headers.add(name: "content-length", value: String(count))
        case .chunked: headers.add(name: "transfer-encoding", value: "chunked")
        }
        return HTTPRequestHead(
            version: .http1_1, method: HTTPMethod(rawValue: request.method.rawValue), uri: uri, headers: headers)
    }

    /// Requires `Authorization: DPoP <gate token>` and a proof by the token's key.
    private func authenticate(_ info: RequestInfo) async throws {
        let authorizations = info.headers(.authorization)
        guard authorizations.count == 1 else {
            throw APIFailure.invalidGateToken("a Gate access token is required (Authorization: DPoP <token>)")
        }
        guard let authorization = AuthorizationHeader(authorizations[0]), authorization.scheme == .dpop else {
            throw APIFailure.invalidGateToken("Gate tokens are DPoP-bound and must be sent with the DPoP scheme")
        }
        let token = authorization.credentials
        guard let verified = await tokens.verify(token, now: dpop.clock.now()) else {
            throw APIFailure.invalidGateToken("the Gate access token is missing, invalid or expired")
        }
        _ = try await dpop.verify(info, endpoint: .resource, accessToken: token, boundJKT: verified.boundJKT)
    }

    /// Splits `/proxy/<name><remainder>` where the remainder is the raw path after the name plus the query.
    /// Dot segments (also percent-encoded) and encoded slashes or backslashes are refused so a path cannot climb
    /// out of the upstream's base path.
    static func split(_ rawPath: String) throws -> (name: String, remainder: String) {
        guard rawPath.hasPrefix(pathPrefix) else {
            throw APIFailure.gate(.notFound, .upstreamNotFound, "no upstream is configured under this name")
        }
        let afterPrefix = rawPath.utf8.dropFirst(pathPrefix.utf8.count)
        let nameEnd =
            afterPrefix.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? afterPrefix.endIndex
        let pathEnd = afterPrefix[nameEnd...].firstIndex(of: UInt8(ascii: "?")) ?? afterPrefix.endIndex
        var segmentStart = nameEnd
        while segmentStart < pathEnd {
            let next = rawPath.utf8.index(after: segmentStart)
            let segmentEnd = afterPrefix[next..<pathEnd].firstIndex(of: UInt8(ascii: "/")) ?? pathEnd
            if ProxiedPathSegment.isUnsafe(afterPrefix[next..<segmentEnd]) {
                throw APIFailure.invalidRequest("the proxied path may not contain dot segments or encoded slashes")
            }
            segmentStart = segmentEnd
        }
        return (String(rawPath[afterPrefix.startIndex..<nameEnd]), String(rawPath[nameEnd...]))
    }

    static func forwardedHeaders(_ fields: HTTPFields) -> HTTPHeaders {
        let connectionNamed = Set(
            fields[values: .connection].flatMap { $0.split(separator: ",") }
                .map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
        var headers = HTTPHeaders()
        for field in fields {
            let name = field.name.canonicalName
            if droppedRequestHeaders.contains(name) || connectionNamed.contains(name) { continue }
            headers.add(name: field.name.rawName, value: field.value)
        }
        return headers
    }

    static func returnedHeaders(_ headers: HTTPHeaders) -> HTTPFields {
        let connectionNamed = Set(
            headers["connection"].flatMap { $0.split(separator: ",") }
                .map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
        var fields = HTTPFields()
        for (name, value) in headers {
            let lower = name.lowercased()
            if droppedResponseHeaders.contains(lower) || connectionNamed.contains(lower) { continue }
            if let fieldName = HTTPField.Name(name) { fields.append(HTTPField(name: fieldName, value: value)) }
        }
        return fields
    }

    static func tooLarge(_ limit: Int) -> APIFailure {
        APIFailure(.contentTooLarge, .payloadTooLarge, "the proxied request body is larger than \(limit) bytes")
    }

    static func failure(for error: any Error, upstream: String, logger: Logger) -> APIFailure {
        let failure = error as? UpstreamFailure
        let timedOut = failure?.isTimeout ?? false
        logger.warning(
            "upstream failed",
            metadata: [
                "upstream": .string(upstream), "error": .string(failure?.kind.rawValue ?? "\(type(of: error))"),
                "timed_out": .stringConvertible(timedOut),
            ])
        if timedOut {
            return APIFailure.gate(.gatewayTimeout, .upstreamTimeout, "the upstream did not answer in time")
        }
        return APIFailure.gate(.badGateway, .upstreamUnavailable, "the upstream could not be reached")
    }
}
