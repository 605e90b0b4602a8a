// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// One request to APNs, as it goes on the wire: `POST /3/device/<token>` with these headers and body.
struct APNSWireRequest: Sendable {
    /// The device token (the path's last segment).
    let deviceToken: String
    /// `apns-topic`.
    let topic: String
    /// `apns-id`.
    let pushID: UUID
    /// `apns-collapse-id`.
    let collapseID: String
    /// `apns-expiration`: Unix seconds after which APNs stops trying to deliver.
    let expiration: Int64
    /// `apns-priority`: 10, deliver at once (an alert).
    let priority: Int
    /// `apns-push-type`.
    let pushType: String
    /// The provider token (the `authorization: bearer` value).
    let providerToken: String
    /// The JSON payload.
    let payload: [UInt8]
}

/// APNs' answer to one request.
struct APNSWireResponse: Sendable, Equatable {
    /// The HTTP status.
    let status: Int
    /// The `apns-id` header of the answer.
    let apnsID: String?
    /// The body's `reason` (absent on 200).
    let reason: String?
    /// The body's `timestamp` (410 only): milliseconds since 1970 when APNs last saw the token valid.
    let timestamp: Int64?
}

/// Sends requests to APNs. The live implementation is ``APNSHTTPClient`` (AsyncHTTPClient over HTTP/2 and TLS).
protocol APNSTransport: Sendable {
    /// Sends `request` to `environment`'s endpoint. Throws when no answer came (connection lost, GOAWAY, timeout).
    func send(_ request: APNSWireRequest, to environment: APNSEnvironment) async throws -> APNSWireResponse
    /// Closes the connections.
    func shutdown() async throws
}
