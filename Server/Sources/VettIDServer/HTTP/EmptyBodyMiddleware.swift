import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Passes an empty request body to the generated handlers as *no* body, so an optional request body
/// (`requestBody.required: false`) may simply be left out. Bodies are already collected and bounded by
/// ``RequestBodyMiddleware``, so collecting here costs nothing more.
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
