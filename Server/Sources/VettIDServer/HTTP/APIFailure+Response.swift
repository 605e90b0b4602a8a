// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Hummingbird
import NIOCore

// The HTTP layer's side of `APIFailure`: the failure value lives with the foundations (every service throws it),
// its rendering as a Hummingbird response lives here.
extension APIFailure: HTTPResponseError {
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        makeResponse()
    }

    /// The HTTP response for this failure.
    public func makeResponse() -> Response {
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        fields[.cacheControl] = "no-store"
        let bytes = bodyBytes
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
