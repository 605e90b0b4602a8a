// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import VettIDCore
import VettIDMessaging

/// `profile.update` (`ProfileUpdateOperation`): sets and removes fields as one new version.
struct ProfileUpdateHandler: VaultOperationHandler {
    typealias Operation = ProfileUpdateOperation
    let profiles: VaultProfileRepository
    let clock: any WallClock

    func respond(to request: ProfileUpdateRequest, context: VaultHandlerContext) async throws -> VaultProfile {
        try await profiles.update(memberID: context.userGUID, request, now: clock.unixMilliseconds())
    }
}
