// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// An error answered by the VettID API, or raised by the SDK around a call.
///
/// Every failure of the API has the body `{"error": <code>, "error_description": <text>}`; the SDK turns it into
/// an `APIError` whose ``code`` is that stable code. The code set is open: new server codes arrive as unknown
/// ``Code`` values instead of breaking callers. Match codes with `catch`:
///
/// ```swift
/// do {
///     try await auth.login(email: email, password: password)
/// } catch APIError.invalidCredentials {
///     // show "wrong email or password"
/// }
/// ```
///
/// The description never contains secrets: it is the server's `error_description` (or an SDK text).
public struct APIError: Error, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// A stable, machine-readable error code (an open set).
    public struct Code: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
        /// The wire value, e.g. `invalid_token`.
        public let rawValue: String

        /// Creates a code from its wire value.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Creates a code from a string literal.
        public init(stringLiteral value: String) { self.rawValue = value }

        /// The wire value.
        public var description: String { rawValue }
        /// `invalid_request`: The request was malformed: bad JSON, a missing or unknown field, or a bad value (400).
        public static let invalidRequest = Code(rawValue: "invalid_request")
        /// `invalid_email`: The email is not a valid address (400).
        public static let invalidEmail = Code(rawValue: "invalid_email")
        /// `weak_password`: The password failed the policy; see ``APIError/reasons`` and ``APIError/score`` (400).
        public static let weakPassword = Code(rawValue: "weak_password")
        /// `invalid_grant`: The refresh token is unknown, expired or was reused; reuse revokes the whole family (400).
        public static let invalidGrant = Code(rawValue: "invalid_grant")
        /// `invalid_dpop_proof`: The DPoP proof is missing, malformed or failed a check (400 or 401).
        public static let invalidDPoPProof = Code(rawValue: "invalid_dpop_proof")
        /// `use_dpop_nonce`: The server requires a DPoP nonce; retry with the `DPoP-Nonce` value (400 or 401).
        public static let useDPoPNonce = Code(rawValue: "use_dpop_nonce")
        /// `invalid_credentials`: Unknown email or wrong password (401).
        public static let invalidCredentials = Code(rawValue: "invalid_credentials")
        /// `invalid_token`: The token is missing, invalid, expired or revoked (401).
        public static let invalidToken = Code(rawValue: "invalid_token")
        /// `not_found`: No such resource or route (404).
        public static let notFound = Code(rawValue: "not_found")
        /// `invitation_not_found`: Unknown invitation code (404).
        public static let invitationNotFound = Code(rawValue: "invitation_not_found")
        /// `method_not_allowed`: The route exists but not with this method (405).
        public static let methodNotAllowed = Code(rawValue: "method_not_allowed")
        /// `email_taken`: An account with this email already exists (409).
        public static let emailTaken = Code(rawValue: "email_taken")
        /// `step_out_of_order`: An enrollment step was called in the wrong state (409).
        public static let stepOutOfOrder = Code(rawValue: "step_out_of_order")
        /// `invitation_used`: The invitation was already redeemed (409).
        public static let invitationUsed = Code(rawValue: "invitation_used")
        /// `invitation_revoked`: The invitation was revoked (409).
        public static let invitationRevoked = Code(rawValue: "invitation_revoked")
        /// `transaction_key_used`: The transaction key was already opened once (409).
        public static let transactionKeyUsed = Code(rawValue: "transaction_key_used")
        /// `action_replayed`: The action token or action id was already used (409).
        public static let actionReplayed = Code(rawValue: "action_replayed")
        /// `stale_credential`: The sealed credential is not the current version (409).
        public static let staleCredential = Code(rawValue: "stale_credential")
        /// `lat_mismatch`: The LAT does not match the current one (409, or raised by the SDK before sending a password).
        public static let latMismatch = Code(rawValue: "lat_mismatch")
        /// `account_exists`: The NATS account already exists (409).
        public static let accountExists = Code(rawValue: "account_exists")
        /// `not_enrolled`: The member has no enrolled vault credential (409).
        public static let notEnrolled = Code(rawValue: "not_enrolled")
        /// `session_expired`: The enrollment session or action expired (410).
        public static let sessionExpired = Code(rawValue: "session_expired")
        /// `invitation_expired`: The invitation expired (410).
        public static let invitationExpired = Code(rawValue: "invitation_expired")
        /// `challenge_expired`: The attestation challenge expired or was already used (410).
        public static let challengeExpired = Code(rawValue: "challenge_expired")
        /// `payload_too_large`: The request body exceeded the server's limit (413).
        public static let payloadTooLarge = Code(rawValue: "payload_too_large")
        /// `unsupported_media_type`: The request body was not `application/json` (415).
        public static let unsupportedMediaType = Code(rawValue: "unsupported_media_type")
        /// `credential_locked`: Failed authentications locked the credential (423).
        public static let credentialLocked = Code(rawValue: "credential_locked")
        /// `rate_limited`: Too many requests; see ``APIError/retryAfter`` (429).
        public static let rateLimited = Code(rawValue: "rate_limited")
        /// `attestation_invalid`: The attestation object failed verification (400).
        public static let attestationInvalid = Code(rawValue: "attestation_invalid")
        /// `attestation_untrusted_root`: The attestation chain does not end at a trusted root (400).
        public static let attestationUntrustedRoot = Code(rawValue: "attestation_untrusted_root")
        /// `attestation_wrong_environment`: The attestation's environment is not the configured one (400).
        public static let attestationWrongEnvironment = Code(rawValue: "attestation_wrong_environment")
        /// `assertion_invalid`: The App Attest assertion failed verification (401).
        public static let assertionInvalid = Code(rawValue: "assertion_invalid")
        /// `assertion_counter_replayed`: The assertion counter did not increase (401).
        public static let assertionCounterReplayed = Code(rawValue: "assertion_counter_replayed")
        /// `upstream_unavailable`: A proxied upstream failed or timed out (502).
        public static let upstreamUnavailable = Code(rawValue: "upstream_unavailable")
        /// `not_implemented`: The endpoint is not built yet (501).
        public static let notImplemented = Code(rawValue: "not_implemented")
        /// `internal_error`: Unexpected server failure (500).
        public static let internalError = Code(rawValue: "internal_error")
        /// `attestation_invalid_nonce`: The certified nonce is not SHA-256(authData ‖ clientDataHash) (other challenge, key or tampering) (400).
        public static let attestationInvalidNonce = Code(rawValue: "attestation_invalid_nonce")
        /// `attestation_key_exists`: This App Attest key id is already registered (409).
        public static let attestationKeyExists = Code(rawValue: "attestation_key_exists")
        /// `attestation_key_unknown`: No registered key has this key id (401).
        public static let attestationKeyUnknown = Code(rawValue: "attestation_key_unknown")
        /// `attestation_not_configured`: App Attest is not configured on this server (no app id) (400 / 503).
        public static let attestationNotConfigured = Code(rawValue: "attestation_not_configured")
        /// `attestation_wrong_app_id`: The rpIdHash is not SHA-256 of the configured app id (400).
        public static let attestationWrongAppId = Code(rawValue: "attestation_wrong_app_id")
        /// `attestation_wrong_key_id`: The key id does not match the attested key (or the credential id) (400).
        public static let attestationWrongKeyId = Code(rawValue: "attestation_wrong_key_id")
        /// `challenge_unknown`: The server never issued this challenge (400).
        public static let challengeUnknown = Code(rawValue: "challenge_unknown")
        /// `challenge_used`: The attestation challenge was already consumed (410).
        public static let challengeUsed = Code(rawValue: "challenge_used")
        /// `challenge_wrong_purpose`: The challenge was issued for the other purpose (attest vs assert) (400).
        public static let challengeWrongPurpose = Code(rawValue: "challenge_wrong_purpose")
        /// `device_key_mismatch`: The DPoP proof's key is not the device key the request names or the attested key is bound to (400).
        public static let deviceKeyMismatch = Code(rawValue: "device_key_mismatch")
        /// `invalid_credential`: The sealed credential does not open (modified, or from another credential) (400).
        public static let invalidCredential = Code(rawValue: "invalid_credential")
        /// `invalid_encrypted_payload`: The HPKE payload does not open for this key, purpose and session or action (400).
        public static let invalidEncryptedPayload = Code(rawValue: "invalid_encrypted_payload")
        /// `store_unavailable`: The data store is unreachable or cannot write (PostgreSQL down or restarting, disk full); retry after `Retry-After` (503).
        public static let storeUnavailable = Code(rawValue: "store_unavailable")
        /// `too_many_invitations`: The member already has the maximum number of pending invitations (409).
        public static let tooManyInvitations = Code(rawValue: "too_many_invitations")
        /// `too_many_tokens`: The member holds the maximum number of active NATS tokens (429).
        public static let tooManyTokens = Code(rawValue: "too_many_tokens")
        /// `transaction_key_unknown`: The session or credential has no transaction key with this id (400).
        public static let transactionKeyUnknown = Code(rawValue: "transaction_key_unknown")
        /// `unsupported_grant_type`: The grant type is not enabled on this server (400).
        public static let unsupportedGrantType = Code(rawValue: "unsupported_grant_type")
        /// `upstream_not_found`: No Gate upstream of that name is configured (404).
        public static let upstreamNotFound = Code(rawValue: "upstream_not_found")
        /// `upstream_timeout`: The upstream did not connect or answer in time (504).
        public static let upstreamTimeout = Code(rawValue: "upstream_timeout")
        /// `network_error`: Client side: the request did not reach the server or no response arrived.
        public static let networkError = Code(rawValue: "network_error")
        /// `invalid_response`: Client side: the server answered with something the SDK could not understand.
        public static let invalidResponse = Code(rawValue: "invalid_response")
        /// `not_authenticated`: Client side: the operation needs a signed-in session and there is none.
        public static let notAuthenticated = Code(rawValue: "not_authenticated")
        /// `sign_in_required`: Client side: the member session has ended (signed out, revoked on the server, or its
        /// refresh token expired); the member signs in again. Background work stops on it.
        public static let signInRequired = Code(rawValue: "sign_in_required")
        /// `http_error`: Client side: a non-2xx answer without a parsable error body.
        public static let httpError = Code(rawValue: "http_error")
    }

    /// The error code.
    public var code: Code
    /// The HTTP status, or `nil` when no response arrived.
    public var status: Int?
    /// Human-readable text (the server's `error_description`); never contains secrets.
    public var description: String
    /// For ``Code/weakPassword``: why the password was refused.
    public var reasons: [String]
    /// For ``Code/weakPassword``: the strength score (0-4) the server computed.
    public var score: Int?
    /// For ``Code/rateLimited`` (and 503): how long to wait before retrying, from `Retry-After`.
    public var retryAfter: Duration?
    /// The error that caused this one (a transport or decoding error), if any.
    public var underlying: (any Error)?

    /// Creates an error.
    public init(
        code: Code,
        status: Int? = nil,
        description: String,
        reasons: [String] = [],
        score: Int? = nil,
        retryAfter: Duration? = nil,
        underlying: (any Error)? = nil
    ) {
        self.code = code
        self.status = status
        self.description = description
        self.reasons = reasons
        self.score = score
        self.retryAfter = retryAfter
        self.underlying = underlying
    }

    /// The code, status and description; the underlying error is named by type only (it may hold a request).
    public var debugDescription: String {
        var text = "APIError(\(code.rawValue)"
        if let status { text += ", status \(status)" }
        text += "): \(description)"
        if !reasons.isEmpty { text += " [\(reasons.joined(separator: "; "))]" }
        if let underlying { text += " (underlying: \(type(of: underlying)))" }
        return text
    }
}

// Static mirrors of the codes so that `catch APIError.invalidToken` reads naturally.
extension APIError {
    /// Matches ``Code/invalidRequest`` in `catch` patterns.
    public static var invalidRequest: Code { .invalidRequest }
    /// Matches ``Code/invalidEmail`` in `catch` patterns.
    public static var invalidEmail: Code { .invalidEmail }
    /// Matches ``Code/weakPassword`` in `catch` patterns.
    public static var weakPassword: Code { .weakPassword }
    /// Matches ``Code/invalidGrant`` in `catch` patterns.
    public static var invalidGrant: Code { .invalidGrant }
    /// Matches ``Code/invalidDPoPProof`` in `catch` patterns.
    public static var invalidDPoPProof: Code { .invalidDPoPProof }
    /// Matches ``Code/useDPoPNonce`` in `catch` patterns.
    public static var useDPoPNonce: Code { .useDPoPNonce }
    /// Matches ``Code/invalidCredentials`` in `catch` patterns.
    public static var invalidCredentials: Code { .invalidCredentials }
    /// Matches ``Code/invalidToken`` in `catch` patterns.
    public static var invalidToken: Code { .invalidToken }
    /// Matches ``Code/notFound`` in `catch` patterns.
    public static var notFound: Code { .notFound }
    /// Matches ``Code/invitationNotFound`` in `catch` patterns.
    public static var invitationNotFound: Code { .invitationNotFound }
    /// Matches ``Code/methodNotAllowed`` in `catch` patterns.
    public static var methodNotAllowed: Code { .methodNotAllowed }
    /// Matches ``Code/emailTaken`` in `catch` patterns.
    public static var emailTaken: Code { .emailTaken }
    /// Matches ``Code/stepOutOfOrder`` in `catch` patterns.
    public static var stepOutOfOrder: Code { .stepOutOfOrder }
    /// Matches ``Code/invitationUsed`` in `catch` patterns.
    public static var invitationUsed: Code { .invitationUsed }
    /// Matches ``Code/invitationRevoked`` in `catch` patterns.
    public static var invitationRevoked: Code { .invitationRevoked }
    /// Matches ``Code/transactionKeyUsed`` in `catch` patterns.
    public static var transactionKeyUsed: Code { .transactionKeyUsed }
    /// Matches ``Code/actionReplayed`` in `catch` patterns.
    public static var actionReplayed: Code { .actionReplayed }
    /// Matches ``Code/staleCredential`` in `catch` patterns.
    public static var staleCredential: Code { .staleCredential }
    /// Matches ``Code/latMismatch`` in `catch` patterns.
    public static var latMismatch: Code { .latMismatch }
    /// Matches ``Code/accountExists`` in `catch` patterns.
    public static var accountExists: Code { .accountExists }
    /// Matches ``Code/notEnrolled`` in `catch` patterns.
    public static var notEnrolled: Code { .notEnrolled }
    /// Matches ``Code/sessionExpired`` in `catch` patterns.
    public static var sessionExpired: Code { .sessionExpired }
    /// Matches ``Code/invitationExpired`` in `catch` patterns.
    public static var invitationExpired: Code { .invitationExpired }
    /// Matches ``Code/challengeExpired`` in `catch` patterns.
    public static var challengeExpired: Code { .challengeExpired }
    /// Matches ``Code/payloadTooLarge`` in `catch` patterns.
    public static var payloadTooLarge: Code { .payloadTooLarge }
    /// Matches ``Code/unsupportedMediaType`` in `catch` patterns.
    public static var unsupportedMediaType: Code { .unsupportedMediaType }
    /// Matches ``Code/credentialLocked`` in `catch` patterns.
    public static var credentialLocked: Code { .credentialLocked }
    /// Matches ``Code/rateLimited`` in `catch` patterns.
    public static var rateLimited: Code { .rateLimited }
    /// Matches ``Code/attestationInvalid`` in `catch` patterns.
    public static var attestationInvalid: Code { .attestationInvalid }
    /// Matches ``Code/attestationUntrustedRoot`` in `catch` patterns.
    public static var attestationUntrustedRoot: Code { .attestationUntrustedRoot }
    /// Matches ``Code/attestationWrongEnvironment`` in `catch` patterns.
    public static var attestationWrongEnvironment: Code { .attestationWrongEnvironment }
    /// Matches ``Code/assertionInvalid`` in `catch` patterns.
    public static var assertionInvalid: Code { .assertionInvalid }
    /// Matches ``Code/assertionCounterReplayed`` in `catch` patterns.
    public static var assertionCounterReplayed: Code { .assertionCounterReplayed }
    /// Matches ``Code/upstreamUnavailable`` in `catch` patterns.
    public static var upstreamUnavailable: Code { .upstreamUnavailable }
    /// Matches ``Code/notImplemented`` in `catch` patterns.
    public static var notImplemented: Code { .notImplemented }
    /// Matches ``Code/internalError`` in `catch` patterns.
    public static var internalError: Code { .internalError }
    /// Matches ``Code/networkError`` in `catch` patterns.
    public static var networkError: Code { .networkError }
    /// Matches ``Code/invalidResponse`` in `catch` patterns.
    public static var invalidResponse: Code { .invalidResponse }
    /// Matches ``Code/notAuthenticated`` in `catch` patterns.
    public static var notAuthenticated: Code { .notAuthenticated }
    /// Matches ``Code/httpError`` in `catch` patterns.
    public static var httpError: Code { .httpError }
}

/// Matches an error against an ``APIError/Code``, so that `catch APIError.invalidToken` works.
///
/// The error may be an ``APIError`` or an OpenAPI runtime error wrapping one.
public func ~= (pattern: APIError.Code, error: any Error) -> Bool {
    APIError.unwrap(error)?.code == pattern
}
