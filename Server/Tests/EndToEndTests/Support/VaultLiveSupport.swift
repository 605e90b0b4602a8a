// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import Logging
import OpenAPIRuntime
import VettIDAPI
import VettIDClient
import VettIDCore

/// Shared parts of the vault end-to-end tests: a member who invites devices, and a device running the SDK's
/// ``VaultService`` against a real server over HTTP.
enum VaultLive {
    static let memberPassword = "vivid-Otter-parsley-42"
    static let vaultPassword = "Quartz-lantern-Meadow-93"
    static let wrongPassword = "Copper-kettle-Harbour-58"

    static var logger: Logger {
        var logger = Logger(label: "e2e-vault")
        logger.logLevel = .error
        return logger
    }

    /// Registers `email` over HTTP, then signs in with a second manager (as a member's other client would) and
    /// returns that one.
    @MainActor
    static func member(baseURL: URL, email: String) async throws -> AuthManager {
        let registering = AuthManager(
            configuration: try .init(baseURL: baseURL, store: InMemorySecureStore(), logger: logger))
        try await registering.register(email: email, password: memberPassword)
        let member = AuthManager(
            configuration: try .init(baseURL: baseURL, store: InMemorySecureStore(), logger: logger))
        try await member.login(email: email, password: memberPassword)
        return member
    }

    /// `POST /vault/invitations` with the member's token; the QR payload parsed as a device would scan it.
    @MainActor
    static func invite(_ member: AuthManager) async throws -> EnrollmentInvitationLink {
        let invitation = try await member.apiClient.perform { client in
            try await client.createInvitation(body: .json(.init(expiresIn: 600, label: "e2e device"))).created.body.json
        }
        return try EnrollmentInvitationLink(parsing: invitation.qrPayload)
    }

    /// A device: the SDK's vault client with a software device key kept in `store`.
    static func device(
        baseURL: URL, attester: any DeviceAttester, store: any SecureStore, transport: (any ClientTransport)? = nil
    ) throws -> VaultService {
        VaultService(
            configuration: try VaultServiceConfiguration(
                baseURL: baseURL, deviceType: .cli, deviceID: nil, logger: logger, transport: transport,
                credentialStorageKey: "vettid.vault.credential"),
            deviceKeyStore: SoftwareDeviceKeyStore(store: store),
            attester: attester,
            store: store)
    }

    /// The ``APIError`` `body` throws, or `nil` when it succeeds.
    static func error<Value>(_ body: () async throws -> Value) async -> APIError? {
        do {
            _ = try await body()
            return nil
        } catch let error as APIError {
            return error
        } catch {
            return APIError(code: .internalError, description: "not an APIError: \(error)")
        }
    }
}

/// A transport that can lose one successful answer: the request reaches the server and commits, then `action`
/// runs (the test kills the server) and the client sees a network failure instead of the answer — a server
/// stopped hard between commit and reply.
struct ResponseLosingTransport: ClientTransport {
    /// The armed loss, if any.
    actor Trap {
        private var armed: (operationID: String, action: @Sendable () async -> Void)?

        /// Loses the next successful answer to `operationID`, after running `action`.
        func arm(_ operationID: String, then action: @escaping @Sendable () async -> Void) {
            armed = (operationID, action)
        }

        func take(_ operationID: String) -> (@Sendable () async -> Void)? {
            guard let armed, armed.operationID == operationID else { return nil }
            self.armed = nil
            return armed.action
        }
    }

    struct LostResponse: Error, CustomStringConvertible {
        let operationID: String
        var description: String { "the answer to \(operationID) was lost" }
    }

    let base: any ClientTransport
    let trap = Trap()

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (
        HTTPResponse, HTTPBody?
    ) {
        let (response, responseBody) = try await base.send(
            request, body: body, baseURL: baseURL, operationID: operationID)
        if response.status.kind == .successful, let action = await trap.take(operationID) {
            await action()
            throw LostResponse(operationID: operationID)
        }
        return (response, responseBody)
    }
}
