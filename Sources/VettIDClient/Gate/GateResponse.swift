// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
public import HTTPTypes

/// The answer to a proxied request: the upstream's status, header fields and body.
public struct GateResponse: Sendable {
    /// The HTTP status.
    public var status: HTTPResponse.Status
    /// The response header fields.
    public var headerFields: HTTPFields
    /// The body (up to ``GateClientConfiguration/maximumResponseBodySize``).
    public var body: Data

    /// Creates a response.
    public init(status: HTTPResponse.Status, headerFields: HTTPFields, body: Data) {
        self.status = status
        self.headerFields = headerFields
        self.body = body
    }
}
