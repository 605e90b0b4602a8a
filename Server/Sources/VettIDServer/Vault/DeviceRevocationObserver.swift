// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation

// Who hears that a member's device credential was revoked, after the revocation committed.

/// Told, after the revocation committed, that the device with RFC 7638 thumbprint `deviceJKT` is no longer an
/// enrolled device of the member `userID` (revoked from the portal, or retired by a new enrollment). The server's
/// vault workers drop that device's sealed sessions (docs/protocol.md §7.3).
typealias DeviceRevocationObserver = @Sendable (_ userID: UUID, _ deviceJKT: String) async -> Void
