// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import AsyncHTTPClient
import BenchSupport
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import OpenAPIRuntime

/// The SDK's HTTP transport for the benchmark: one AsyncHTTPClient whose pool allows a connection per simulated
/// device, so that `N` clients put `N` requests in flight. (The SDK's default transport uses `HTTPClient.shared`,
/// whose pool allows 8 connections per host and would queue the rest in the client.)
struct BenchTransport: ClientTransport {
    let client: HTTPClient

    private static let maxBodyBytes = 1 << 20

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (
        HTTPResponse, HTTPBody?
    ) {
        var origin = baseURL.absoluteString
        if origin.hasSuffix("/") { origin.removeLast() }
        var outgoing = HTTPClientRequest(url: origin + (request.path ?? ""))
        outgoing.method = HTTPMethod(rawValue: request.method.rawValue)
        for field in request.headerFields {
            outgoing.headers.add(name: field.name.canonicalName, value: field.value)
        }
        if let body {
            outgoing.body = .bytes(ByteBuffer(bytes: try await [UInt8](collecting: body, upTo: Self.maxBodyBytes)))
        }
        let response = try await client.execute(outgoing, timeout: .seconds(300))
        var fields = HTTPFields()
        for header in response.headers {
            if let name = HTTPField.Name(header.name) { fields.append(HTTPField(name: name, value: header.value)) }
        }
        let bytes = try await response.body.collect(upTo: Self.maxBodyBytes)
        return (
            HTTPResponse(status: .init(code: Int(response.status.code)), headerFields: fields),
            HTTPBody(Array(buffer: bytes))
        )
    }
}
