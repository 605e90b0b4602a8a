// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A request as the fake transport saw it.
struct RecordedRequest: Sendable {
    var method: HTTPRequest.Method
    var path: String
    var headers: HTTPFields
    var body: Data
}

/// A `ClientTransport` that answers from a closure and records every request (unit tests only).
final class FakeTransport: ClientTransport, Sendable {
    typealias Handler = @Sendable (RecordedRequest) async throws -> (HTTPResponse, HTTPBody?)

    private let handler: Handler
    let log = RequestLog()

    init(handler: @escaping Handler) {
        self.handler = handler
    }

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (
        HTTPResponse, HTTPBody?
    ) {
        var bytes = Data()
        if let body { bytes = try await Data(collecting: body, upTo: 1 << 20) }
        let recorded = RecordedRequest(
            method: request.method, path: request.path ?? "", headers: request.headerFields, body: bytes)
        await log.append(recorded)
        return try await handler(recorded)
    }
}

/// The requests a fake transport received.
actor RequestLog {
    private(set) var requests: [RecordedRequest] = []

    func append(_ request: RecordedRequest) {
        requests.append(request)
    }

    func count(path: String) -> Int {
        requests.filter { $0.path == path }.count
    }
}

/// A network failure thrown by the fake transport.
struct FakeNetworkError: Error {}

/// Builds a response with a JSON body.
func jsonResponse(
    _ status: HTTPResponse.Status,
    _ json: String,
    headers: HTTPFields = [:]
) -> (HTTPResponse, HTTPBody?) {
    var fields = headers
    fields[.contentType] = "application/json"
    return (HTTPResponse(status: status, headerFields: fields), HTTPBody(json))
}

/// Builds an `Error` body response.
func errorResponse(
    _ status: HTTPResponse.Status,
    code: String,
    description: String = "failed",
    headers: HTTPFields = [:]
) -> (HTTPResponse, HTTPBody?) {
    jsonResponse(status, #"{"error":"\#(code)","error_description":"\#(description)"}"#, headers: headers)
}

let testBaseURL = URL(string: "http://127.0.0.1:9")!
