// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import VettIDAPI
import VettIDCore
import VettIDCrypto

/// The vault identity keys apps pin for sealed sessions (docs/protocol.md §7.3), as the API answers them: from
/// the enrollment finalize answer and `GET /vault/session-keys`.
struct VaultSessionKeySetSource: Sendable {
    let signingKeys: TokenSigningKeys
    let clock: any WallClock

    /// Every key of the token-signing ring's generations and the `kid` signing now.
    func keySet() -> Components.Schemas.VaultSessionKeySet {
        let (keys, currentKid) = signingKeys.vaultSessionPublicKeys(now: clock.now())
        return .init(
            keys: keys.map { kid, key in
                let point = Array(key.x963Representation)  // 0x04 || x || y
                return .init(
                    kid: kid, kty: .ec, crv: .p256, x: Base64URL.encode(point[1..<33]),
                    y: Base64URL.encode(point[33..<65]), alg: .es256)
            },
            currentKid: currentKid)
    }
}
