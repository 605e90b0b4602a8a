// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Passes an empty request body to the generated handlers as *no* body, so an optional request body
/// (`requestBody.required: false`) may simply be left out. Bodies are already collected and bounded by
/// ``RequestBodyMiddleware`` (64 KiB by default), so this costs one more copy of at most that many bytes.
struct EmptyBodyMiddleware: ServerMiddleware {
    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard let body else { return try await next(request, nil, metadata) }
        let bytes = try await [UInt8](collecting: body, upTo: .max)
        return try await next(request, bytes.isEmpty ? nil : HTTPBody(bytes), metadata)
    }
}
