// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// Which attested key the Gate has registered for which device key, kept in the ``SecureStore`` so that a
/// restarted app does not register again.
struct GateRegistrationRecord: Codable, Equatable, Sendable {
    /// The attested key's id (standard base64).
    var keyID: String
    /// The device key thumbprint registered with it (base64url).
    var deviceKeyThumbprint: String

    enum CodingKeys: String, CodingKey {
        case keyID = "key_id"
        case deviceKeyThumbprint = "jkt"
    }
}
