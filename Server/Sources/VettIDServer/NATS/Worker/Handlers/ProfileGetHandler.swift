// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import VettIDCore
import VettIDMessaging

/// `profile.get` (`ProfileGetOperation`): the member's profile.
struct ProfileGetHandler: VaultOperationHandler {
    typealias Operation = ProfileGetOperation
    let profiles: VaultProfileRepository

    func respond(to request: VaultEmptyPayload, context: VaultHandlerContext) async throws -> VaultProfile {
        try await profiles.get(memberID: context.userGUID)
    }
}
