// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// What an authenticator returns from a registration (`navigator.credentials.create()`, an
/// `ASAuthorizationPlatformPublicKeyCredentialRegistration`, the SDK's software authenticator), in bytes.
public struct PasskeyRegistrationResponse: Sendable, Hashable {
    /// The credential id (`rawId`).
    public var credentialID: [UInt8]
    /// The client data JSON, as the client serialized it.
    public var clientDataJSON: [UInt8]
    /// The CBOR attestation object.
    public var attestationObject: [UInt8]
    /// The transports the authenticator reported (`internal`, `hybrid`, `usb`, …), kept as hints.
    public var transports: [String]

    /// Creates a registration response.
    /// - Parameters:
    ///   - credentialID: The credential id (`rawId`).
    ///   - clientDataJSON: The client data JSON, as the client serialized it.
    ///   - attestationObject: The CBOR attestation object.
    ///   - transports: The transports the authenticator reported.
    public init(credentialID: [UInt8], clientDataJSON: [UInt8], attestationObject: [UInt8], transports: [String]) {
        self.credentialID = credentialID
        self.clientDataJSON = clientDataJSON
        self.attestationObject = attestationObject
        self.transports = transports
    }
}

/// What an authenticator returns from an authentication (`navigator.credentials.get()`, an
/// `ASAuthorizationPlatformPublicKeyCredentialAssertion`, the SDK's software authenticator), in bytes.
public struct PasskeyAssertionResponse: Sendable, Hashable {
    /// The credential id (`rawId`).
    public var credentialID: [UInt8]
    /// The client data JSON, as the client serialized it.
    public var clientDataJSON: [UInt8]
    /// The authenticator data.
    public var authenticatorData: [UInt8]
    /// The signature over `authenticatorData ‖ SHA-256(clientDataJSON)`.
    public var signature: [UInt8]
    /// The user handle the credential was created for (discoverable credentials always return it).
    public var userHandle: [UInt8]?

    /// Creates an authentication response.
    /// - Parameters:
    ///   - credentialID: The credential id (`rawId`).
    ///   - clientDataJSON: The client data JSON, as the client serialized it.
    ///   - authenticatorData: The authenticator data.
    ///   - signature: The signature over `authenticatorData ‖ SHA-256(clientDataJSON)`.
    ///   - userHandle: The user handle, when the authenticator returned one.
    public init(
        credentialID: [UInt8], clientDataJSON: [UInt8], authenticatorData: [UInt8], signature: [UInt8],
        userHandle: [UInt8]?
    ) {
        self.credentialID = credentialID
        self.clientDataJSON = clientDataJSON
        self.authenticatorData = authenticatorData
        self.signature = signature
        self.userHandle = userHandle
    }
}
