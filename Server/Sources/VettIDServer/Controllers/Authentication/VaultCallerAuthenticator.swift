// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import VettIDCore

/// Finds who asks for vault status, sync or NATS credentials: a device with a vault session token
/// (`Authorization: DPoP <session token>` and a proof), or else any member authentication.
struct VaultCallerAuthenticator: Sendable {
    /// Who asks.
    struct Caller: Sendable {
        let userID: UUID
        /// The credential of the device's vault session; `nil` for a member.
        let credentialID: String?
        /// The RFC 7638 thumbprint of the key that proved the device's vault session; `nil` for a member.
        var deviceJKT: String? = nil
    }

    let devices: DeviceTokenAuthenticator
    let members: MemberAuthenticator

    /// The caller of `info`: a valid vault session token first, any member authentication otherwise.
    func authenticate(_ info: RequestInfo) async throws -> Caller {
        if let token = DeviceTokenAuthenticator.token(of: info),
            let verified = await devices.tokens.verify(token, as: .session, now: devices.clock.now())
        {
            let session = try await devices.prove(token, verified, info)
            guard let userID = UUID(uuidString: session.userGUID) else {
                throw APIFailure.invalidDeviceToken("the vault session names no member")
            }
            return Caller(userID: userID, credentialID: session.contextID, deviceJKT: session.boundJKT)
        }
        let member = try await members.authenticate(info)
        return Caller(userID: member.member.id, credentialID: nil)
    }
}
