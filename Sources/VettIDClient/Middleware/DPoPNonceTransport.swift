// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
public import HTTPTypes
public import OpenAPIRuntime

/// A `ClientTransport` that runs another transport through a ``DPoPNonceMiddleware``: nonce memory and the
/// one retry on `use_dpop_nonce` for clients whose middleware chain is fixed (``AuthManager`` wraps its
/// transport with it when configured with a ``DeviceKeyStore``).
public struct DPoPNonceTransport: ClientTransport {
    /// The transport that sends the requests.
    public let base: any ClientTransport
    /// The nonce handling.
    public let middleware: DPoPNonceMiddleware

    /// Wraps `base`.
    public init(base: any ClientTransport, middleware: DPoPNonceMiddleware) {
        self.base = base
        self.middleware = middleware
    }

    /// Sends the request through the middleware.
    public func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (
        HTTPResponse, HTTPBody?
    ) {
        try await middleware.intercept(request, body: body, baseURL: baseURL, operationID: operationID) {
            request, body, baseURL in
            try await base.send(request, body: body, baseURL: baseURL, operationID: operationID)
        }
    }
}
