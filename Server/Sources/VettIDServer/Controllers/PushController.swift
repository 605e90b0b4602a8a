// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import OpenAPIRuntime
import VettIDAPI
import VettIDCore

/// A device's APNs token (docs/protocol.md 7.6): only the device itself, over its vault session, registers or
/// removes it.
struct PushController: Sendable {
    let push: PushService
    let devices: DeviceTokenAuthenticator
    let lifecycle: VaultLifecycleService

    func registerPushToken(_ input: Operations.RegisterPushToken.Input) async throws
        -> Operations.RegisterPushToken.Output
    {
        let info = try RequestInfo.required
        let (userID, deviceJKT) = try await device(info)
        guard case .json(let body) = input.body else { throw APIFailure.invalidRequest("a JSON body is required") }
        guard let environment = APNSEnvironment(rawValue: body.environment.rawValue) else {
            throw APIFailure.invalidRequest("environment must be sandbox or production")
        }
        let record = try await push.register(
            userID: userID, deviceJKT: deviceJKT, token: body.token, environment: environment,
            bundleID: body.bundleId)
        return .ok(
            .init(
                body: .json(
                    .init(
                        environment: body.environment, bundleId: record.bundleID,
                        registeredAt: record.registeredAt))))
    }

    func removePushToken(_ input: Operations.RemovePushToken.Input) async throws -> Operations.RemovePushToken.Output {
        let (userID, deviceJKT) = try await device(try RequestInfo.required)
        try await push.remove(userID: userID, deviceJKT: deviceJKT)
        return .noContent(.init())
    }

    /// The member and the device key of the request's vault session; a member's token, or a session of a device
    /// whose credential was revoked since, is 401 `invalid_token`.
    private func device(_ info: RequestInfo) async throws -> (UUID, String) {
        let session = try await devices.authenticate(.session, info)
        guard let userID = UUID(uuidString: session.userGUID),
            try await lifecycle.hasEnrolledDevice(userID: userID, deviceJKT: session.boundJKT)
        else {
            throw APIFailure.invalidDeviceToken("the vault session's device is not enrolled")
        }
        return (userID, session.boundJKT)
    }
}
