// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import HTTPTypes
import VettIDCore

extension APIFailure {
    static func gate(_ status: HTTPResponse.Status, _ code: Code, _ message: String) -> APIFailure {
        APIFailure(status, code, message, headers: [.cacheControl: "no-store"])
    }

    /// 401 `invalid_token` for the Gate's resource (DPoP scheme challenge).
    static func invalidGateToken(_ message: String) -> APIFailure {
        APIFailure(
            .unauthorized, .invalidToken, message,
            headers: [.wwwAuthenticate: #"DPoP error="invalid_token", algs="ES256""#]
        )
    }
}
