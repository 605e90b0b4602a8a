// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
public import HTTPTypes
public import Logging
public import OpenAPIRuntime

/// Logs each HTTP exchange with credentials redacted.
///
/// At `debug` it logs the operation, method, path (never the query), status and duration; at `trace` it adds the
/// request and response header fields, with the values of `Authorization`, `Proxy-Authorization`, `Cookie`,
/// `Set-Cookie` and `DPoP` replaced by `<redacted>`. Bodies are never logged (they carry passwords, tokens and
/// seeds); only their declared length is. Path segments shaped like invitation codes (`XXXX-XXXX`), which
/// would let a log reader redeem a pending invitation, are redacted too.
public struct LoggingMiddleware: ClientMiddleware {
    /// The header fields whose values are never logged.
    public static let redactedFields: Set<HTTPField.Name> = [
        .authorization, .proxyAuthorization, .cookie, .setCookie, HTTPField.Name("DPoP")!,
    ]

    /// The placeholder written instead of a redacted value.
    public static let redactionMarker = "<redacted>"

    let logger: Logger

    /// Creates the middleware.
    /// - Parameter logger: The logger to write to.
    public init(logger: Logger) {
        self.logger = logger
    }

    /// Logs the request, forwards it, and logs the outcome.
    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var metadata: Logger.Metadata = [
            "http.operation": "\(operationID)",
            "http.method": "\(request.method.rawValue)",
            "http.path": "\(Self.pathWithoutQuery(request.path))",
        ]
        if case .known(let length) = body?.length { metadata["http.request.body_length"] = "\(length)" }
        if logger.logLevel <= .trace {
            metadata["http.request.headers"] = "\(Self.redacted(request.headerFields))"
        }
        let start = ContinuousClock.now
        logger.debug("HTTP request", metadata: metadata)
        do {
            let (response, responseBody) = try await next(request, body, baseURL)
            metadata["http.status"] = "\(response.status.code)"
            metadata["http.duration_ms"] = "\(Self.milliseconds(ContinuousClock.now - start))"
            if logger.logLevel <= .trace {
                metadata["http.response.headers"] = "\(Self.redacted(response.headerFields))"
            }
            logger.debug("HTTP response", metadata: metadata)
            return (response, responseBody)
        } catch {
            metadata["http.duration_ms"] = "\(Self.milliseconds(ContinuousClock.now - start))"
            metadata["error.type"] = "\(type(of: error))"
            logger.debug("HTTP request failed", metadata: metadata)
            throw error
        }
    }

    /// Renders header fields as `Name: value` lines with sensitive values replaced.
    static func redacted(_ fields: HTTPFields) -> String {
        fields.map { field in
            let value = redactedFields.contains(field.name) ? redactionMarker : field.value
            return "\(field.name): \(value)"
        }.joined(separator: ", ")
    }

    static func pathWithoutQuery(_ path: String?) -> String {
        guard let path else { return "" }
        let withoutQuery = path.prefix { $0 != "?" && $0 != "#" }
        return withoutQuery.split(separator: "/", omittingEmptySubsequences: false)
            .map { isInvitationCode($0) ? Substring(redactionMarker) : $0 }
            .joined(separator: "/")
    }

    /// Whether a path segment looks like an invitation code: 4 + 4 characters of the code alphabet.
    static func isInvitationCode(_ segment: Substring) -> Bool {
        let alphabet = Set("ABCDEFGHJKMNPQRSTUVWXYZ23456789")
        let parts = segment.split(separator: "-", omittingEmptySubsequences: false)
        return parts.count == 2 && parts.allSatisfy { $0.count == 4 && $0.allSatisfy(alphabet.contains) }
    }

    static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
