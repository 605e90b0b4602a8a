// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
public import Foundation
public import VettIDAttestation

/// A passkey authenticator in software: P-256 keys kept in a ``SecureStore``, a signature counter per
/// credential, `none` attestation. For Linux apps and the `vettid` CLI (`vettid passkey add`, `vettid login
/// --passkey`), and for testing the SDK's passkey flows for real.
///
/// It is honest about what it is: it sets the user-present flag (the caller asked), never user-verified (it
/// verifies nobody: a server that requires user verification refuses it) and never the backup flags (its keys
/// stay in this store). Its credentials are discoverable: an assertion returns the user handle.
///
/// The client data's origin is the relying party's web origin, which the platform authenticator derives itself:
/// pass the server's origin (`https://vettid.example`; `http://localhost:8080` for a local server).
public actor SoftwarePasskeyAuthenticator: PasskeyAuthenticator {
    /// One stored credential (its private key included: the store is the SDK's secure store).
    struct Credential: Codable, Sendable {
        let credentialID: Data
        let rpID: String
        let userHandle: Data
        let userName: String
        let privateKey: Data
        var signCount: UInt32
    }

    private let store: any SecureStore
    private let storageKey: String
    private let origin: String

    /// Creates an authenticator over a store.
    /// - Parameters:
    ///   - store: Where the credentials are kept.
    ///   - origin: The origin written into the client data, e.g. `https://vettid.example`.
    ///   - storageKey: The store key of the credential list.
    public init(store: any SecureStore, origin: String, storageKey: String = "vettid.passkeys") {
        self.store = store
        self.origin = origin
        self.storageKey = storageKey
    }

    /// Creates an authenticator whose origin is the scheme, host and port of `baseURL`.
    /// - Parameters:
    ///   - store: Where the credentials are kept.
    ///   - baseURL: The server's URL.
    ///   - storageKey: The store key of the credential list.
    public init(store: any SecureStore, serverURL baseURL: URL, storageKey: String = "vettid.passkeys") {
        var origin = "\(baseURL.scheme ?? "https")://\(baseURL.host ?? "")"
        if let port = baseURL.port { origin += ":\(port)" }
        self.init(store: store, origin: origin, storageKey: storageKey)
    }

    public func createPasskey(
        _ request: PasskeyCreationRequest
    ) async throws(PasskeyError) -> PasskeyRegistrationResponse {
        guard request.algorithms.contains(.es256) else {
            throw PasskeyError(
                .invalidOptions, "the server does not accept ES256, the only algorithm of this authenticator")
        }
        guard !request.challenge.isEmpty, !request.userID.isEmpty else {
            throw PasskeyError(.invalidOptions, "the options carry no challenge or no user handle")
        }
        var credentials = try await load()
        let excluded = Set(request.excludedCredentialIDs.map { Data($0) })
        guard !credentials.contains(where: { $0.rpID == request.rpID && excluded.contains($0.credentialID) }) else {
            throw PasskeyError(.failed, "this authenticator already holds a passkey of this member")
        }
        let key = P256.Signing.PrivateKey()
        let credentialID = Array(SHA256.hash(data: key.publicKey.rawRepresentation))
        let point = key.publicKey.rawRepresentation
        let authenticatorData = WebAuthnAuthenticatorData.encode(
            rpID: request.rpID, flags: .userPresent, signCount: 0,
            attestedCredential: .init(
                aaguid: [UInt8](repeating: 0, count: 16), credentialID: credentialID,
                publicKey: .p256(x: Array(point.prefix(32)), y: Array(point.suffix(32)))))
        let clientData = CollectedClientData(type: .create, challenge: request.challenge, origin: origin)
        // A new credential for the same user replaces the old one there, as platform authenticators do.
        credentials.removeAll { $0.rpID == request.rpID && $0.userHandle == Data(request.userID) }
        credentials.append(
            Credential(
                credentialID: Data(credentialID), rpID: request.rpID, userHandle: Data(request.userID),
                userName: request.userName, privateKey: key.rawRepresentation, signCount: 0))
        try await save(credentials)
        return PasskeyRegistrationResponse(
            credentialID: credentialID, clientDataJSON: clientData.json,
            attestationObject: WebAuthnAttestationObject.encodeNone(authenticatorData: authenticatorData),
            transports: ["internal"])
    }

    public func assertPasskey(
        _ request: PasskeyAssertionRequest
    ) async throws(PasskeyError) -> PasskeyAssertionResponse {
        var credentials = try await load()
        let allowed = Set(request.allowedCredentialIDs.map { Data($0) })
        guard
            let index = credentials.lastIndex(where: {
                $0.rpID == request.rpID && (allowed.isEmpty || allowed.contains($0.credentialID))
            })
        else {
            throw PasskeyError(.noCredential, "no passkey for \(request.rpID) in this store")
        }
        credentials[index].signCount &+= 1
        let credential = credentials[index]
        let key: P256.Signing.PrivateKey
        do { key = try P256.Signing.PrivateKey(rawRepresentation: credential.privateKey) } catch {
            throw PasskeyError(.failed, "the stored passkey cannot be read", underlying: error)
        }
        // The counter is saved before the signature leaves: a counter never goes back, even if the send fails.
        try await save(credentials)
        let authenticatorData = WebAuthnAuthenticatorData.encode(
            rpID: request.rpID, flags: .userPresent, signCount: credential.signCount)
        let clientData = CollectedClientData(type: .get, challenge: request.challenge, origin: origin)
        let signature: P256.Signing.ECDSASignature
        do { signature = try key.signature(for: authenticatorData + clientData.hash) } catch {
            throw PasskeyError(.failed, "signing with the passkey failed", underlying: error)
        }
        return PasskeyAssertionResponse(
            credentialID: Array(credential.credentialID), clientDataJSON: clientData.json,
            authenticatorData: authenticatorData, signature: Array(signature.derRepresentation),
            userHandle: Array(credential.userHandle))
    }

    /// Forgets a credential (after the server removed it), so that a later sign-in does not offer it.
    /// - Parameter credentialID: The credential id.
    public func forget(credentialID: [UInt8]) async throws(PasskeyError) {
        var credentials = try await load()
        credentials.removeAll { $0.credentialID == Data(credentialID) }
        try await save(credentials)
    }

    /// The credential ids this store holds for a relying party.
    /// - Parameter rpID: The relying party id.
    public func credentialIDs(for rpID: String) async throws(PasskeyError) -> [[UInt8]] {
        try await load().filter { $0.rpID == rpID }.map { Array($0.credentialID) }
    }

    private func load() async throws(PasskeyError) -> [Credential] {
        do {
            guard let data = try await store.data(forKey: storageKey) else { return [] }
            return try JSONDecoder().decode([Credential].self, from: data)
        } catch {
            throw PasskeyError(.failed, "the passkey store cannot be read", underlying: error)
        }
    }

    private func save(_ credentials: [Credential]) async throws(PasskeyError) {
        do { try await store.set(try JSONEncoder().encode(credentials), forKey: storageKey) } catch {
            throw PasskeyError(.failed, "the passkey store cannot be written", underlying: error)
        }
    }
}
