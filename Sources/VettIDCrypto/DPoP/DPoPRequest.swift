// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// What a server knows about a request whose DPoP proof it verifies.

/// The request context a `DPoPVerifier` (VettIDVerification) checks a proof against.
public struct DPoPRequest: Sendable {
    /// Every value of the request's `DPoP` header (the verifier requires exactly one).
    public var proofHeaderValues: [String]
    /// The request method, as received (compared case-sensitively with `htm`).
    public var method: String
    /// The request URI as the client addressed it (scheme, external host and port, path); query and
    /// fragment are ignored. Behind a proxy, rebuild it from the forwarded headers.
    public var targetURI: String
    /// The access token from `Authorization: DPoP <token>`, when present; then `ath` is required.
    public var accessToken: String?
    /// The `cnf.jkt` of that access token, when the token is bound; then the proof's key must match it.
    public var boundKeyThumbprint: String?

    /// Creates a request context.
    public init(
        proofHeaderValues: [String],
        method: String,
        targetURI: String,
        accessToken: String? = nil,
        boundKeyThumbprint: String? = nil
    ) {
        self.proofHeaderValues = proofHeaderValues
        self.method = method
        self.targetURI = targetURI
        self.accessToken = accessToken
        self.boundKeyThumbprint = boundKeyThumbprint
    }

    /// Creates a request context with a single proof.
    public init(
        proof: String, method: String, targetURI: String, accessToken: String? = nil, boundKeyThumbprint: String? = nil
    ) {
        self.init(
            proofHeaderValues: [proof],
            method: method,
            targetURI: targetURI,
            accessToken: accessToken,
            boundKeyThumbprint: boundKeyThumbprint
        )
    }
}
