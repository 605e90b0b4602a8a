// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import HTTPTypes
import VettIDCore

extension HTTPResponse.Status {
    /// 423 Locked (RFC 4918), which HTTPTypes does not name.
    static let locked = HTTPResponse.Status(code: 423, reasonPhrase: "Locked")
}

extension APIFailure {
    static func vault(_ status: HTTPResponse.Status, _ code: Code, _ message: String) -> APIFailure {
        APIFailure(status, code, message, headers: [.cacheControl: "no-store"])
    }

    static let stepOutOfOrder = vault(
        .conflict, .stepOutOfOrder, "this enrollment step is not allowed in the session's state")
    static let enrollmentExpired = vault(
        .gone, .sessionExpired, "the enrollment session expired; start again with a new invitation")
    static let credentialLocked = vault(
        .locked, .credentialLocked,
        "the credential is locked after too many failed authentications; enroll the device again from a new invitation")

    /// 401 `invalid_dpop_proof`: the proof is valid but by another key than the one the session or credential is
    /// bound to.
    static let proofByAnotherKey = APIFailure(
        .unauthorized, .invalidDPoPProof, "the DPoP proof is not by the device key this flow is bound to",
        headers: [.wwwAuthenticate: #"DPoP error="invalid_dpop_proof", algs="ES256""#, .cacheControl: "no-store"])

    /// 401 `invalid_token` with the DPoP scheme challenge.
    static func invalidDeviceToken(_ message: String) -> APIFailure {
        APIFailure(
            .unauthorized, .invalidToken, message,
            headers: [.wwwAuthenticate: #"DPoP error="invalid_token", algs="ES256""#, .cacheControl: "no-store"])
    }
}
