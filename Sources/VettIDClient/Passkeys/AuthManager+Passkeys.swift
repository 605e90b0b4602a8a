// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import VettIDAPI
import VettIDCore

// Passkeys (docs/sdk.md "Passkeys"): the server side of the ceremonies around a PasskeyAuthenticator.

extension AuthManager {
    /// Signs in with a passkey: asks the server for a challenge, has `authenticator` sign it, and stores the
    /// session the server issues (the same session as ``login(email:password:)``, bound to the device key).
    /// - Parameters:
    ///   - authenticator: The platform's (`PlatformPasskeyAuthenticator`) or the ``SoftwarePasskeyAuthenticator``.
    ///   - email: The member's email, to offer only their passkeys; `nil` lets the member pick any passkey of this
    ///     server (a discoverable sign-in).
    /// - Throws: ``APIError``: `passkey_failed` with the ``PasskeyError`` as ``APIError/underlying`` when no
    ///   credential came from the authenticator (cancelled, none for this server, not supported), 401
    ///   `passkey_rejected` when the server refused it, `rate_limited`, `network_error`, …
    public func signInWithPasskey(using authenticator: any PasskeyAuthenticator, email: String? = nil)
        async throws(APIError)
    {
        isLoading = true
        defer { isLoading = false }
        do throws(APIError) {
            let options = try await apiClient.perform { client in
                try await client.startPasskeySignIn(body: .json(.init(email: email)))
            }
            guard case .ok(let ok) = options, case .json(let body) = ok.body else {
                throw APIError(code: .invalidResponse, description: "Unexpected answer to the passkey options.")
            }
            let request = try await Self.ceremony { () throws(PasskeyError) in try PasskeyAssertionRequest(body) }
            let assertion = try await Self.ceremony { () throws(PasskeyError) in
                try await authenticator.assertPasskey(request)
            }
            let output = try await apiClient.perform { client in
                try await client.signInWithPasskey(body: .json(.init(credential: .init(assertion))))
            }
            guard case .ok(let signedIn) = output, case .json(let tokens) = signedIn.body else {
                throw APIError(code: .invalidResponse, description: "Unexpected answer to the passkey sign-in.")
            }
            try await adopt(tokens, setCookie: signedIn.headers.setCookie)
        } catch {
            self.error = error
            throw error
        }
    }

    /// Adds a passkey to the signed-in member: the server's options, `authenticator` creates the credential,
    /// the server verifies and keeps it.
    /// - Parameters:
    ///   - name: What the member calls it (at most 64 characters); `nil` lets the server name it.
    ///   - authenticator: The platform's (`PlatformPasskeyAuthenticator`) or the ``SoftwarePasskeyAuthenticator``.
    /// - Returns: The passkey as the server keeps it.
    /// - Throws: ``APIError``: `passkey_failed` (underlying ``PasskeyError``), 400 `passkey_rejected`, 409
    ///   `passkey_exists`, `invalid_token`, …
    @discardableResult
    public func addPasskey(named name: String? = nil, using authenticator: any PasskeyAuthenticator)
        async throws(APIError) -> MemberPasskey
    {
        isLoading = true
        defer { isLoading = false }
        do throws(APIError) {
            let options = try await apiClient.perform { client in try await client.startPasskeyRegistration() }
            guard case .ok(let ok) = options, case .json(let body) = ok.body else {
                throw APIError(code: .invalidResponse, description: "Unexpected answer to the passkey options.")
            }
            let request = try await Self.ceremony { () throws(PasskeyError) in try PasskeyCreationRequest(body) }
            let registration = try await Self.ceremony { () throws(PasskeyError) in
                try await authenticator.createPasskey(request)
            }
            let output = try await apiClient.perform { client in
                try await client.registerPasskey(body: .json(.init(name: name, credential: .init(registration))))
            }
            guard case .created(let created) = output, case .json(let passkey) = created.body else {
                throw APIError(code: .invalidResponse, description: "Unexpected answer to the passkey registration.")
            }
            self.error = nil
            return MemberPasskey(passkey)
        } catch {
            self.error = error
            throw error
        }
    }

    /// The signed-in member's passkeys, oldest first.
    /// - Throws: ``APIError`` (`invalid_token`, `network_error`, …).
    public func passkeys() async throws(APIError) -> [MemberPasskey] {
        let output = try await apiClient.perform { client in try await client.listPasskeys() }
        guard case .ok(let ok) = output, case .json(let body) = ok.body else {
            throw APIError(code: .invalidResponse, description: "Unexpected answer to the passkey list.")
        }
        return body.passkeys.map(MemberPasskey.init)
    }

    /// Renames one of the member's passkeys.
    /// - Parameters:
    ///   - id: The passkey's ``MemberPasskey/id``.
    ///   - name: The new name, 1 to 64 characters.
    /// - Throws: ``APIError`` (404 `passkey_not_found`, 400 `invalid_request`, …).
    @discardableResult
    public func renamePasskey(id: String, to name: String) async throws(APIError) -> MemberPasskey {
        let output = try await apiClient.perform { client in
            try await client.renamePasskey(path: .init(credentialId: id), body: .json(.init(name: name)))
        }
        guard case .ok(let ok) = output, case .json(let body) = ok.body else {
            throw APIError(code: .invalidResponse, description: "Unexpected answer to the passkey rename.")
        }
        return MemberPasskey(body)
    }

    /// Removes one of the member's passkeys: it no longer signs in (the authenticator keeps it until the member
    /// deletes it there; ``SoftwarePasskeyAuthenticator/forget(credentialID:)`` does that for the software one).
    /// - Parameter id: The passkey's ``MemberPasskey/id``.
    /// - Throws: ``APIError`` (404 `passkey_not_found`, …).
    public func removePasskey(id: String) async throws(APIError) {
        let output = try await apiClient.perform { client in
            try await client.removePasskey(path: .init(credentialId: id))
        }
        guard case .noContent = output else {
            throw APIError(code: .invalidResponse, description: "Unexpected answer to the passkey removal.")
        }
    }

    /// Runs an authenticator step, reporting its ``PasskeyError`` as ``APIError`` `passkey_failed`.
    private static func ceremony<Result>(_ step: () async throws(PasskeyError) -> Result) async throws(APIError)
        -> Result
    {
        do { return try await step() } catch {
            throw APIError(code: .passkeyFailed, description: error.message, underlying: error)
        }
    }
}
