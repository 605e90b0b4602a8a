// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import HTTPTypes

extension APIFailure.Code {
    /// An enrollment step in the wrong session state.
    public static let stepOutOfOrder = Self(rawValue: "step_out_of_order")
    /// The enrollment session or the action is past its lifetime.
    public static let sessionExpired = Self(rawValue: "session_expired")
    /// The invitation was already redeemed.
    public static let invitationUsed = Self(rawValue: "invitation_used")
    /// The invitation was revoked.
    public static let invitationRevoked = Self(rawValue: "invitation_revoked")
    /// The invitation expired.
    public static let invitationExpired = Self(rawValue: "invitation_expired")
    /// The transaction key was already opened once.
    public static let transactionKeyUsed = Self(rawValue: "transaction_key_used")
    /// The session or credential has no transaction key with this id.
    public static let transactionKeyUnknown = Self(rawValue: "transaction_key_unknown")
    /// The encrypted payload does not open for this key, purpose and session or action.
    public static let invalidEncryptedPayload = Self(rawValue: "invalid_encrypted_payload")
    /// The action (or its token) was already used.
    public static let actionReplayed = Self(rawValue: "action_replayed")
    /// The sealed credential is not the current version.
    public static let staleCredential = Self(rawValue: "stale_credential")
    /// The sealed credential does not open (modified, or from another credential).
    public static let invalidCredential = Self(rawValue: "invalid_credential")
    /// Too many failed authentications; the credential is locked.
    public static let credentialLocked = Self(rawValue: "credential_locked")
    /// The member has no enrolled credential.
    public static let notEnrolled = Self(rawValue: "not_enrolled")
}

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
