// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
public import HTTPTypes
public import VettIDCore

/// An error the API reports to the client as `{"error": code, "error_description": text}` with a status.
///
/// Every failure of every endpoint becomes one of these (see ``ErrorRendering``); the code set is open and
/// documented in docs/protocol.md.
public struct APIFailure: CodedError {
    /// The error code: the wire codes of `openapi.yaml`'s error table, generated into VettIDCore.
    public typealias Code = APIErrorCode

    public var status: HTTPResponse.Status
    public var code: Code
    public var message: String
    public var reasons: [String]?
    public var score: Int?
    public var headers: HTTPFields

    public init(
        _ status: HTTPResponse.Status, _ code: Code, _ message: String,
        reasons: [String]? = nil, score: Int? = nil, headers: HTTPFields = [:]
    ) {
        self.status = status
        self.code = code
        self.message = message
        self.reasons = reasons
        self.score = score
        self.headers = headers
    }

    private struct Body: Encodable {
        let error: String
        let error_description: String
        let reasons: [String]?
        let score: Int?
    }

    /// The JSON body bytes.
    public var bodyBytes: [UInt8] {
        let body = Body(error: code.rawValue, error_description: message, reasons: reasons, score: score)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? Array(encoder.encode(body))) ?? Array(#"{"error":"internal_error","error_description":""}"#.utf8)
    }
}

extension APIFailure {
    static func invalidRequest(_ message: String) -> APIFailure { APIFailure(.badRequest, .invalidRequest, message) }
    static func invalidToken(_ message: String = "the access token is missing, invalid, expired or revoked")
        -> APIFailure
    {
        APIFailure(.unauthorized, .invalidToken, message, headers: [.wwwAuthenticate: #"Bearer error="invalid_token""#])
    }
    static func rateLimited(retryAfter seconds: Int) -> APIFailure {
        APIFailure(
            .tooManyRequests, .rateLimited, "too many requests; retry after \(seconds) s",
            headers: [.retryAfter: String(seconds)]
        )
    }
}
