// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import HTTPTypes

extension APIFailure.Code {
    /// The attestation challenge is past its five minutes.
    public static let challengeExpired = Self(rawValue: "challenge_expired")
    /// The attestation challenge was already consumed.
    public static let challengeUsed = Self(rawValue: "challenge_used")
    /// The server never issued this challenge.
    public static let challengeUnknown = Self(rawValue: "challenge_unknown")
    /// The challenge was issued for the other purpose (attest vs assert).
    public static let challengeWrongPurpose = Self(rawValue: "challenge_wrong_purpose")
    /// An attestation step failed that has no more specific code.
    public static let attestationInvalid = Self(rawValue: "attestation_invalid")
    /// The certified nonce is not SHA-256(authData ‖ clientDataHash) (tampered nonce, other challenge or key).
    public static let attestationInvalidNonce = Self(rawValue: "attestation_invalid_nonce")
    /// The rpIdHash is not the configured app id's.
    public static let attestationWrongAppID = Self(rawValue: "attestation_wrong_app_id")
    /// The key id does not match the attested key (or the credential id).
    public static let attestationWrongKeyID = Self(rawValue: "attestation_wrong_key_id")
    /// The aaguid is not an allowed environment.
    public static let attestationWrongEnvironment = Self(rawValue: "attestation_wrong_environment")
    /// The certificate chain does not end at a trusted root.
    public static let attestationUntrustedRoot = Self(rawValue: "attestation_untrusted_root")
    /// App Attest is not configured on this server (no app id).
    public static let attestationNotConfigured = Self(rawValue: "attestation_not_configured")
    /// This key id is already registered.
    public static let attestationKeyExists = Self(rawValue: "attestation_key_exists")
    /// No registered key has this key id.
    public static let attestationKeyUnknown = Self(rawValue: "attestation_key_unknown")
    /// The DPoP proof's key is not the device key the request names or the attested key is bound to.
    public static let deviceKeyMismatch = Self(rawValue: "device_key_mismatch")
    /// The assertion failed verification.
    public static let assertionInvalid = Self(rawValue: "assertion_invalid")
    /// The assertion counter did not increase.
    public static let assertionCounterReplayed = Self(rawValue: "assertion_counter_replayed")
    /// The grant type is not enabled on this server.
    public static let unsupportedGrantType = Self(rawValue: "unsupported_grant_type")
    /// No upstream of that name is configured.
    public static let upstreamNotFound = Self(rawValue: "upstream_not_found")
    /// The upstream could not be reached or failed.
    public static let upstreamUnavailable = Self(rawValue: "upstream_unavailable")
    /// The upstream did not connect or answer in time.
    public static let upstreamTimeout = Self(rawValue: "upstream_timeout")
}

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
