// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import OpenAPIRuntime
import VettIDAPI
import VettIDAttestation
import VettIDCore
import VettIDCrypto
import VettIDVerification

/// Members' passkeys (docs/protocol.md §2.5): the ceremonies' options and results, the list, rename and remove,
/// and `/.well-known/apple-app-site-association` for the apps that share them.
struct PasskeyController: Sendable {
    let passkeys: PasskeyService
    let members: MemberAuthenticator
    /// The password sign-in's controller: a passkey sign-in answers with the same tokens and cookie.
    let auth: AuthController

    func startPasskeyRegistration(_ input: Operations.StartPasskeyRegistration.Input) async throws
        -> Operations.StartPasskeyRegistration.Output
    {
        let member = try await members.authenticate(try RequestInfo.required).member
        let options = try await passkeys.registrationOptions(for: member)
        return .ok(.init(body: .json(.init(options))))
    }

    func registerPasskey(_ input: Operations.RegisterPasskey.Input) async throws -> Operations.RegisterPasskey.Output {
        let info = try RequestInfo.required
        let member = try await members.authenticate(info).member
        guard case .json(let body) = input.body else { throw APIFailure.invalidRequest("expected a JSON body") }
        let record = try await passkeys.register(
            try PasskeyRegistrationResponse(body.credential), name: body.name, for: member,
            origin: info.securityOrigin, logger: info.logger)
        return .created(.init(body: .json(.init(record))))
    }

    func listPasskeys(_ input: Operations.ListPasskeys.Input) async throws -> Operations.ListPasskeys.Output {
        let member = try await members.authenticate(try RequestInfo.required).member
        return .ok(.init(body: .json(.init(passkeys: try await passkeys.list(for: member).map { .init($0) }))))
    }

    func renamePasskey(_ input: Operations.RenamePasskey.Input) async throws -> Operations.RenamePasskey.Output {
        let info = try RequestInfo.required
        let member = try await members.authenticate(info).member
        guard case .json(let body) = input.body else { throw APIFailure.invalidRequest("expected a JSON body") }
        let record = try await passkeys.rename(
            id: input.path.credentialId, to: body.name, for: member, origin: info.securityOrigin)
        return .ok(.init(body: .json(.init(record))))
    }

    func removePasskey(_ input: Operations.RemovePasskey.Input) async throws -> Operations.RemovePasskey.Output {
        let info = try RequestInfo.required
        let member = try await members.authenticate(info).member
        try await passkeys.remove(
            id: input.path.credentialId, for: member, origin: info.securityOrigin, logger: info.logger)
        return .noContent(.init())
    }

    func startPasskeySignIn(_ input: Operations.StartPasskeySignIn.Input) async throws
        -> Operations.StartPasskeySignIn.Output
    {
        let info = try RequestInfo.required
        var email: String?
        if case .json(let body) = input.body { email = body.email }
        if let email, email.unicodeScalars.count > 320 {
            throw APIFailure.invalidRequest("email is longer than 320 characters")
        }
        let options = try await passkeys.signInOptions(email: email, origin: info.securityOrigin)
        return .ok(.init(body: .json(.init(options))))
    }

    func signInWithPasskey(_ input: Operations.SignInWithPasskey.Input) async throws
        -> Operations.SignInWithPasskey.Output
    {
        let info = try RequestInfo.required
        guard case .json(let body) = input.body else { throw APIFailure.invalidRequest("expected a JSON body") }
        let response = try PasskeyAssertionResponse(body.credential)
        let jkt = try await auth.proofThumbprintIfPresent(info)
        let issued = try await passkeys.signIn(
            response, dpopJKT: jkt, origin: info.securityOrigin, logger: info.logger)
        return .ok(auth.tokenIssued(issued, info))
    }

    /// `GET /.well-known/apple-app-site-association`: the apps (`passkey_app_ids`) that may use this server's
    /// passkeys (`webcredentials`). 404 when none is configured.
    func routes() -> RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        let appIDs = passkeys.configuration.appIDs
        routes.get("/.well-known/apple-app-site-association") { _, _ -> Response in
            guard !appIDs.isEmpty else {
                throw APIFailure(.notFound, .notFound, "no app shares this server's passkeys")
            }
            let body = try JSONSerialization.data(
                withJSONObject: ["webcredentials": ["apps": appIDs]], options: [.sortedKeys])
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(bytes: body)))
        }
        return routes
    }
}

// MARK: Wire forms

extension PasskeyRegistrationResponse {
    /// The bytes of WebAuthn's `RegistrationResponseJSON`; `id` and `rawId` must agree.
    init(_ json: Components.Schemas.PasskeyRegistrationResponseJSON) throws {
        guard let id = Base64URL.decode(json.rawId), json.id == json.rawId,
            let clientData = Base64URL.decode(json.response.clientDataJSON),
            let attestation = Base64URL.decode(json.response.attestationObject)
        else { throw APIFailure.invalidRequest("the credential's fields must be base64url, and id equal to rawId") }
        self.init(
            credentialID: id, clientDataJSON: clientData, attestationObject: attestation,
            transports: json.response.transports ?? [])
    }
}

extension PasskeyAssertionResponse {
    /// The bytes of WebAuthn's `AuthenticationResponseJSON`; `id` and `rawId` must agree.
    init(_ json: Components.Schemas.PasskeyAuthenticationResponseJSON) throws {
        guard let id = Base64URL.decode(json.rawId), json.id == json.rawId,
            let clientData = Base64URL.decode(json.response.clientDataJSON),
            let authenticatorData = Base64URL.decode(json.response.authenticatorData),
            let signature = Base64URL.decode(json.response.signature)
        else { throw APIFailure.invalidRequest("the credential's fields must be base64url, and id equal to rawId") }
        var userHandle: [UInt8]?
        if let text = json.response.userHandle {
            guard let handle = Base64URL.decode(text) else {
                throw APIFailure.invalidRequest("the user handle must be base64url")
            }
            userHandle = handle
        }
        self.init(
            credentialID: id, clientDataJSON: clientData, authenticatorData: authenticatorData, signature: signature,
            userHandle: userHandle)
    }
}

extension Components.Schemas.Passkey {
    init(_ record: PasskeyRecord) {
        self.init(
            id: record.id, name: record.name, createdAt: record.createdAt, lastUsedAt: record.lastUsedAt,
            backupEligible: record.backupEligible, backedUp: record.backupState, transports: record.transports)
    }
}

extension Components.Schemas.PasskeyCreationOptions {
    init(_ options: PasskeyService.RegistrationOptions) {
        self.init(
            rp: .init(id: options.rpID, name: options.rpName),
            user: .init(
                id: Base64URL.encode(options.userHandle), name: options.userName, displayName: options.displayName),
            challenge: Base64URL.encode(options.challenge),
            pubKeyCredParams: options.algorithms.map { .init(_type: .publicKey, alg: $0.rawValue) },
            timeout: options.timeoutMilliseconds,
            excludeCredentials: options.excluded.map {
                .init(_type: .publicKey, id: $0.id, transports: $0.transports.isEmpty ? nil : $0.transports)
            },
            authenticatorSelection: .init(
                residentKey: "required", requireResidentKey: true, userVerification: options.userVerification.rawValue),
            attestation: "none")
    }
}

extension Components.Schemas.PasskeyRequestOptions {
    init(_ options: PasskeyService.SignInOptions) {
        self.init(
            challenge: Base64URL.encode(options.challenge), rpId: options.rpID, timeout: options.timeoutMilliseconds,
            allowCredentials: options.allowed.map {
                .init(
                    _type: .publicKey, id: Base64URL.encode($0.id),
                    transports: $0.transports.isEmpty ? nil : $0.transports)
            },
            userVerification: options.userVerification.rawValue)
    }
}
