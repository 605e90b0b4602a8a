// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
public import Hummingbird
import Logging
import NIOCore
import VettIDCore

/// Gives each request an id (a sane incoming `X-Request-ID`, or a new one) and puts it with the route template on
/// every log line of the request, logs one structured line per request (method, path without query, status,
/// duration; never headers or bodies), records the request in ``ServerMetrics``, marks every non-proxied
/// answer `Cache-Control: no-store`, and exposes the request's facts to handlers through ``RequestInfo/current``.
public struct RequestInfoMiddleware: RouterMiddleware {
    public typealias Context = AppRequestContext
    let trustForwardedFor: Bool
    let metrics: ServerMetrics?

    public init(trustForwardedFor: Bool, metrics: ServerMetrics? = nil) {
        self.trustForwardedFor = trustForwardedFor
        self.metrics = metrics
    }

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let requestID = Self.acceptableID(request.headers[.xRequestID]) ?? Self.newID()
        var context = context
        // The route template (never the raw path: bounded, and free of codes and ids) on every log line.
        let route = context.endpointPath ?? "NotFound"
        // One assignment of the handler's metadata: a handler may render its metadata on every change
        // (swift-log's StreamLogHandler does), and this runs on every request.
        var metadata = context.logger.handler.metadata
        metadata["request_id"] = .string(requestID)
        metadata["route"] = .string(route)
        context.logger.handler.metadata = metadata
        let info = RequestInfo(
            head: request.head, clientIP: clientIP(request, context: context), requestID: requestID,
            logger: context.logger, responseHeaders: ResponseHeaders()
        )
        let started = ContinuousClock.now
        var response: Response
        do {
            response = try await RequestInfo.$current.withValue(info) { try await next(request, context) }
        } catch {
            let failure = ErrorRendering.failure(for: error, logger: context.logger)
            metrics?.refusal(code: failure.code, route: route)
            response = failure.makeResponse()
        }
        response.headers.append(contentsOf: info.responseHeaders.all)
        response.headers[.xRequestID] = requestID
        // Every API answer is per-caller and many carry secrets (tokens, seeds, credentials): none may be stored
        // by a cache (RFC 6749 §5.1, RFC 9111). Proxied answers keep the upstream's own caching headers.
        if response.headers[.cacheControl] == nil, !request.uri.path.hasPrefix(GateProxy.pathPrefix) {
            response.headers[.cacheControl] = "no-store"
        }
        let elapsed = ContinuousClock.now - started
        metrics?.request(method: request.method.rawValue, route: route, status: response.status.code, duration: elapsed)
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        context.logger.info(
            "request",
            metadata: [
                "method": .string(request.method.rawValue),
                "path": .string(request.uri.path),
                "status": .stringConvertible(response.status.code),
                "duration_ms": .stringConvertible((milliseconds * 100).rounded() / 100),
            ]
        )
        return response
    }

    private func clientIP(_ request: Request, context: Context) -> String? {
        if trustForwardedFor, let forwarded = request.headers[.xForwardedFor] {
            let first = forwarded.split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces) }
            if let first, !first.isEmpty { return first }
        }
        return context.peerAddress
    }

    static func acceptableID(_ value: String?) -> String? {
        guard let value, (1...64).contains(value.utf8.count),
            value.utf8.allSatisfy({
                $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || (48...57).contains($0) || (65...90).contains($0)
                    || (97...122).contains($0)
            })
        else { return nil }
        return value
    }

    static func newID() -> String { UUID().uuidString.lowercased() }
}

extension HTTPField.Name {
    static let xRequestID = HTTPField.Name("X-Request-ID")!
    static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
    static let dpop = HTTPField.Name("DPoP")!
    static let dpopNonce = HTTPField.Name("DPoP-Nonce")!
}
