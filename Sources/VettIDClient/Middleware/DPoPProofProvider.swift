// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
public import HTTPTypes

/// Creates DPoP proofs (RFC 9449) for outgoing requests: the seam where device-bound tokens plug in.
///
/// ``AuthHeaderMiddleware`` asks the provider for a proof for every authenticated request and sends it in the
/// `DPoP` header. Implementations build `htu` from `url` without query and fragment, add `ath` when
/// `accessToken` is given, and include the newest server nonce for the origin.
public protocol DPoPProofProvider: Sendable {
    /// Returns the compact JWS of a proof for one request.
    /// - Parameters:
    ///   - method: The request method (`htm`).
    ///   - url: The full request URL (`htu` is derived from it).
    ///   - accessToken: The access token sent with the request, for `ath`; `nil` at token endpoints.
    func proof(method: HTTPRequest.Method, url: URL, accessToken: String?) async throws -> String
}
