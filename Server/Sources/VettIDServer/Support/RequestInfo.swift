// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
public import HTTPTypes
public import Logging
import VettIDCore

/// What the generated OpenAPI handlers cannot see on their own: the raw request line and headers, the client
/// address and the request's logger. Set for the duration of each request by ``RequestInfoMiddleware``.
public struct RequestInfo: Sendable {
    /// The request head (method, scheme, authority, path, headers).
    public let head: HTTPRequest
    /// The client's IP address (the peer, or `X-Forwarded-For` when configured to trust it).
    public let clientIP: String?
    /// The request id, also returned as `X-Request-ID`.
    public let requestID: String
    /// A logger carrying the request id.
    public let logger: Logger
    /// Fields to add to the response verbatim (e.g. `Set-Cookie`).
    public let responseHeaders: ResponseHeaders

    /// The current request's info.
    @TaskLocal public static var current: RequestInfo?

    /// The current request's info; a 500 `internal_error` when no ``RequestInfoMiddleware`` set it.
    static var required: RequestInfo {
        get throws {
            guard let info = current else {
                throw APIFailure(.internalServerError, .internalError, "request context missing")
            }
            return info
        }
    }

    /// The header field value, if present exactly once.
    public func header(_ name: HTTPField.Name) -> String? {
        let values = head.headerFields[values: name]
        return values.count == 1 ? values[0] : nil
    }

    /// Where the request came from, for a ``SecurityEvent``.
    public var securityOrigin: SecurityEvent.Origin { .init(ip: clientIP, client: header(.userAgent)) }

    /// All values of a header.
    public func headers(_ name: HTTPField.Name) -> [String] { head.headerFields[values: name] }

    /// The value of cookie `name` from the `Cookie` header(s).
    public func cookie(_ name: String) -> String? { cookies(name).first }

    /// Every value of cookie `name`, in the order the client sent them (a browser can hold several cookies of one
    /// name for different paths or domains; one planted by another site must not be mistaken for the real one).
    public func cookies(_ name: String) -> [String] {
        var values: [String] = []
        for header in head.headerFields[values: .cookie] {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name {
                    values.append(parts[1].trimmingCharacters(in: .whitespaces))
                }
            }
        }
        return values
    }
}
