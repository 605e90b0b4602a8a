// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Logging
import OpenAPIRuntime
import VettIDAPI

// The device's APNs token (docs/protocol.md 7.6), over the device's own vault session: the server knows the device
// by the key that proves it.
extension VaultService {
    /// Registers this device's APNs token (`PUT /vault/push/token`), replacing the one it registered before: the
    /// server then wakes the app with a content-free push when its mailbox gets a message while it is away.
    /// - Parameters:
    ///   - token: The token the system handed the app.
    ///   - environment: `.sandbox` for a development-signed app, `.production` otherwise.
    ///   - bundleID: The app's bundle id (one the server is configured to push to).
    /// - Throws: ``APIError``: `push_not_configured` (503, the server sends no pushes), `invalid_request` (400, a
    ///   bundle id the server does not serve), `reauthentication_required` (no vault session), ….
    public func registerPushToken(
        _ token: PushDeviceToken, environment: PushEnvironment, bundleID: String
    ) async throws(APIError) -> PushRegistration {
        guard let wireEnvironment = Components.Schemas.PushEnvironment(rawValue: environment.rawValue) else {
            throw APIError(code: .invalidRequest, description: "Unknown push environment '\(environment.rawValue)'.")
        }
        let request = Components.Schemas.PushTokenRequest(
            token: token.hex, environment: wireEnvironment, bundleId: bundleID)
        let body = try await authorizedCall("registerPushToken", reauthenticate: true, vaultSessionOnly: true) {
            client in
            try await client.registerPushToken(.init(headers: .init(dpop: ""), body: .json(request))).ok.body.json
        }
        configuration.logger.debug("Vault: push token registered", metadata: ["push.environment": "\(environment)"])
        return PushRegistration(
            environment: PushEnvironment(rawValue: body.environment.rawValue) ?? environment, bundleID: body.bundleId,
            registeredAt: body.registeredAt)
    }

    /// Removes this device's APNs token (`DELETE /vault/push/token`): no more wake pushes. Succeeds when there was
    /// none.
    /// - Throws: ``APIError``: `reauthentication_required` (no vault session), `network_error`, ….
    public func removePushToken() async throws(APIError) {
        _ = try await authorizedCall("removePushToken", reauthenticate: true, vaultSessionOnly: true) { client in
            _ = try await client.removePushToken(.init(headers: .init(dpop: ""))).noContent
        }
        configuration.logger.debug("Vault: push token removed")
    }
}
