// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
public import Hummingbird
public import Logging
import NIOCore
import OpenAPIRuntime
import VettIDCore

/// Turns every failure into the API's JSON error shape with a stable code.
///
/// Handles ``APIFailure`` (ours), OpenAPIRuntime's `ServerError` (request decoding, content type, handler
/// errors it wrapped), Hummingbird's `HTTPError` (unknown route, body limits), and anything else as a 500 whose
/// details stay in the log. ``RequestInfoMiddleware``, the outermost middleware, applies it to every request.
public enum ErrorRendering {
    /// The response for any error.
    public static func response(for error: any Error, logger: Logger) -> Response {
        failure(for: error, logger: logger).makeResponse()
    }

    static func failure(for error: any Error, logger: Logger) -> APIFailure {
        if !(error is APIFailure), let outage = StoreUnavailable.classify(error) {
            logger.error("store unavailable", metadata: ["detail": "\(outage.detail)"])
            return APIFailure(
                .serviceUnavailable, .storeUnavailable, "the data store is unavailable; retry shortly",
                headers: [.retryAfter: "1"])
        }
        switch error {
        case let failure as APIFailure:
            return failure
        case let serverError as ServerError:
            if let failure = serverError.underlyingError as? APIFailure { return failure }
            if let decoding = serverError.underlyingError as? DecodingError {
                return .invalidRequest(describe(decoding))
            }
            switch serverError.httpStatus {
            case .unsupportedMediaType:
                return APIFailure(
                    .unsupportedMediaType, .unsupportedMediaType, "the request body must be application/json")
            case .badRequest:
                return .invalidRequest("the request is malformed or misses a required part")
            case .notFound:
                return APIFailure(.notFound, .notFound, "no such resource")
            default:
                logger.error(
                    "operation failed",
                    metadata: [
                        "operation": "\(serverError.operationID)", "error": "\(type(of: serverError.underlyingError))",
                    ])
                return APIFailure(.internalServerError, .internalError, "the server failed to handle the request")
            }
        case let httpError as HTTPError:
            switch httpError.status {
            case .notFound: return APIFailure(.notFound, .notFound, "no such resource")
            case .methodNotAllowed: return APIFailure(.methodNotAllowed, .methodNotAllowed, "method not allowed here")
            case .contentTooLarge:
                return APIFailure(.contentTooLarge, .payloadTooLarge, "the request body is too large")
            case .badRequest: return .invalidRequest(httpError.body ?? "the request is malformed")
            default:
                return APIFailure(httpError.status, .internalError, httpError.body ?? httpError.status.reasonPhrase)
            }
        case is NIOTooManyBytesError:
            return APIFailure(.contentTooLarge, .payloadTooLarge, "the request body is too large")
        default:
            logger.error("unhandled error", metadata: ["error_type": "\(type(of: error))"])
            return APIFailure(.internalServerError, .internalError, "the server failed to handle the request")
        }
    }

    /// A client-facing description of a JSON decoding error that names the field but never echoes values.
    static func describe(_ error: DecodingError) -> String {
        func subject(_ context: DecodingError.Context, _ extra: (any CodingKey)? = nil) -> String {
            let keys = context.codingPath + (extra.map { [$0] } ?? [])
            let text = keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            return text.isEmpty ? "the body" : "field `\(text)`"
        }
        switch error {
        case .keyNotFound(let key, let context): return "missing required \(subject(context, key))"
        case .valueNotFound(_, let context): return "\(subject(context)) must not be null"
        case .typeMismatch(_, let context): return "\(subject(context)) has the wrong type"
        case .dataCorrupted(let context):
            // OpenAPIRuntime's `ensureNoAdditionalProperties` reports the (first) unknown key as the path's last.
            if context.debugDescription.contains("Additional properties"), !context.codingPath.isEmpty {
                return "unknown \(subject(context))"
            }
            if context.codingPath.isEmpty { return "the body is not valid JSON for this operation" }
            return "\(subject(context)) has an invalid value"
        @unknown default: return "the body is not valid JSON for this operation"
        }
    }
}
