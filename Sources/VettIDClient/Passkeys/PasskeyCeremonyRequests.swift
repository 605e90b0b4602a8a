// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDAttestation

/// What a ``PasskeyAuthenticator`` is asked to create: the server's registration options, decoded.
public struct PasskeyCreationRequest: Sendable, Hashable {
    /// The relying party id, e.g. `vettid.example`.
    public let rpID: String
    /// The relying party's display name.
    public let rpName: String
    /// The server's single-use challenge.
    public let challenge: [UInt8]
    /// The member's user handle (opaque bytes, never an email).
    public let userID: [UInt8]
    /// The member's account name (their email address), shown in the passkey picker.
    public let userName: String
    /// The member's display name.
    public let userDisplayName: String
    /// The member's existing credentials: an authenticator holding one of them refuses to create another.
    public let excludedCredentialIDs: [[UInt8]]
    /// The algorithms the server accepts, in preference order.
    public let algorithms: [COSEAlgorithm]
    /// `required`, `preferred` or `discouraged`.
    public let userVerification: String

    /// Creates a request.
    /// - Parameters:
    ///   - rpID: The relying party id.
    ///   - rpName: The relying party's display name.
    ///   - challenge: The server's challenge.
    ///   - userID: The member's user handle.
    ///   - userName: The member's account name.
    ///   - userDisplayName: The member's display name.
    ///   - excludedCredentialIDs: The member's existing credentials.
    ///   - algorithms: The algorithms the server accepts.
    ///   - userVerification: `required`, `preferred` or `discouraged`.
    public init(
        rpID: String, rpName: String, challenge: [UInt8], userID: [UInt8], userName: String, userDisplayName: String,
        excludedCredentialIDs: [[UInt8]], algorithms: [COSEAlgorithm], userVerification: String
    ) {
        self.rpID = rpID
        self.rpName = rpName
        self.challenge = challenge
        self.userID = userID
        self.userName = userName
        self.userDisplayName = userDisplayName
        self.excludedCredentialIDs = excludedCredentialIDs
        self.algorithms = algorithms
        self.userVerification = userVerification
    }
}

/// What a ``PasskeyAuthenticator`` is asked to sign: the server's authentication options, decoded.
public struct PasskeyAssertionRequest: Sendable, Hashable {
    /// The relying party id.
    public let rpID: String
    /// The server's single-use challenge.
    public let challenge: [UInt8]
    /// The credentials the server accepts, or empty to let the member pick any passkey for the relying party
    /// (a discoverable sign-in).
    public let allowedCredentialIDs: [[UInt8]]
    /// `required`, `preferred` or `discouraged`.
    public let userVerification: String

    /// Creates a request.
    /// - Parameters:
    ///   - rpID: The relying party id.
    ///   - challenge: The server's challenge.
    ///   - allowedCredentialIDs: The credentials the server accepts, or empty for a discoverable sign-in.
    ///   - userVerification: `required`, `preferred` or `discouraged`.
    public init(rpID: String, challenge: [UInt8], allowedCredentialIDs: [[UInt8]], userVerification: String) {
        self.rpID = rpID
        self.challenge = challenge
        self.allowedCredentialIDs = allowedCredentialIDs
        self.userVerification = userVerification
    }
}

/// Something that makes and uses passkeys: Apple's platform authenticator through `ASAuthorization`
/// (`PlatformPasskeyAuthenticator`, Apple platforms), or ``SoftwarePasskeyAuthenticator`` (Linux, the CLI,
/// tests). ``AuthManager`` runs the server side of the ceremonies around it.
public protocol PasskeyAuthenticator: Sendable {
    /// Creates a passkey for the request's relying party and member.
    /// - Throws: ``PasskeyError`` (`cancelled`, `not_supported`, `invalid_options`, `failed`).
    func createPasskey(_ request: PasskeyCreationRequest) async throws(PasskeyError) -> PasskeyRegistrationResponse

    /// Signs the request's challenge with a passkey of the relying party.
    /// - Throws: ``PasskeyError`` (`cancelled`, `no_credential`, `not_supported`, `failed`).
    func assertPasskey(_ request: PasskeyAssertionRequest) async throws(PasskeyError) -> PasskeyAssertionResponse
}
