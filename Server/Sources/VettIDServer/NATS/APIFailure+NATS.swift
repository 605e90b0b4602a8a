// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import HTTPTypes

extension APIFailure.Code {
    /// The member's NATS namespaces already exist.
    /// This server has no nats-server to issue tokens for (`nats_url` is not set).
    public static let natsNotConfigured = Self(rawValue: "nats_not_configured")
    /// nats-server did not take the account update (yet); the change is recorded and re-sent on reconnect.
    public static let natsUnavailable = Self(rawValue: "nats_unavailable")
    /// The member holds the maximum number of active NATS tokens.
    public static let tooManyTokens = Self(rawValue: "too_many_tokens")
}

extension APIFailure {
    static func nats(_ status: HTTPResponse.Status, _ code: Code, _ message: String) -> APIFailure {
        APIFailure(status, code, message, headers: [.cacheControl: "no-store"])
    }
}
