// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
public import HTTPTypes
import OpenAPIRuntime
import VettIDCore

extension APIError {
    /// The largest error body the SDK reads; larger bodies are cut off (the code is still taken from the status).
    static let maximumErrorBodySize = 64 * 1024

    /// Builds the error for a non-2xx response from its status, headers and `Error` body.
    ///
    /// A body that is not the documented `Error` JSON yields `APIError.httpError` with the status.
    /// - Parameters:
    ///   - response: The HTTP response.
    ///   - body: The response body bytes (already collected).
    public init(response: HTTPResponse, body: Data) {
        let retryAfter = response.headerFields[.retryAfter].flatMap { Self.parseRetryAfter($0) }
        let status = response.status.code
        if let wire = try? JSONDecoder().decode(WireError.self, from: body), !wire.error.isEmpty {
            self.init(
                code: Code(rawValue: wire.error),
                status: status,
                description: wire.errorDescription ?? wire.error,
                reasons: wire.reasons ?? [],
                score: wire.score,
                retryAfter: retryAfter
            )
        } else {
            self.init(
                code: .httpError,
                status: status,
                description: "HTTP \(status) \(response.status.reasonPhrase)",
                retryAfter: retryAfter
            )
        }
    }

    /// Finds the ``APIError`` inside an error thrown by a generated client call.
    ///
    /// The OpenAPI runtime wraps errors thrown by middlewares and transports in `ClientError`; this looks through
    /// those layers. Returns `nil` when no `APIError` is inside.
    public static func unwrap(_ error: any Error) -> APIError? {
        var current: any Error = error
        for _ in 0..<8 {
            if let apiError = current as? APIError { return apiError }
            if let clientError = current as? ClientError {
                current = clientError.underlyingError
                continue
            }
            return nil
        }
        return nil
    }

    /// Converts any error thrown around an API call into an ``APIError``.
    ///
    /// An `APIError` (possibly wrapped by the runtime) is returned as is; a transport failure becomes
    /// `APIError.networkError`; cancellation keeps its identity as the underlying error; anything else becomes
    /// `APIError.invalidResponse`.
    public static func from(_ error: any Error) -> APIError {
        if let apiError = unwrap(error) { return apiError }
        if let clientError = error as? ClientError {
            let cause = clientError.underlyingError
            if cause is CancellationError {
                return APIError(code: .networkError, description: "The request was cancelled.", underlying: cause)
            }
            if clientError.response == nil {
                return APIError(
                    code: .networkError,
                    description: "The request to \(clientError.operationID) failed: no response from the server.",
                    underlying: cause
                )
            }
            return APIError(
                code: .invalidResponse,
                status: clientError.response?.status.code,
                description: "The response to \(clientError.operationID) could not be read.",
                underlying: cause
            )
        }
        if error is CancellationError {
            return APIError(code: .networkError, description: "The request was cancelled.", underlying: error)
        }
        return APIError(code: .networkError, description: "The request failed: \(type(of: error)).", underlying: error)
    }

    /// Parses `Retry-After` (RFC 9110 §10.2.3): delay-seconds, or an IMF-fixdate measured from `now`
    /// (a date in the past means "now": zero).
    static func parseRetryAfter(_ value: String, now: Date = Date()) -> Duration? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(trimmed) {
            return seconds >= 0 ? .seconds(seconds) : nil
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        guard let date = formatter.date(from: trimmed) else { return nil }
        return .seconds(max(0, Int(date.timeIntervalSince(now).rounded(.up))))
    }
}

/// The wire shape of the `Error` schema, decoded leniently (unknown fields ignored).
struct WireError: Decodable {
    var error: String
    var errorDescription: String?
    var reasons: [String]?
    var score: Int?

    enum CodingKeys: String, CodingKey {
        case error
        case errorDescription = "error_description"
        case reasons
        case score
    }
}
