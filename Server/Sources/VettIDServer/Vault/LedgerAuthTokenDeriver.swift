// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import VettIDCore
import VettIDCrypto

/// Derives the ledger auth token (LAT, `LedgerAuthToken` in VettIDCore): proof to the device that it talks to
/// the server that enrolled it.
///
/// The server never stores it; it recomputes it from the credential's identity and version:
/// `token = HMAC-SHA256(K_lat, "vettid-lat/v1" ‖ user_guid ‖ credential_id ‖ version)` and
/// `lat_id = base64url(HMAC-SHA256(K_lat, "vettid-lat-id/v1" ‖ …)[0..<16])`, each field length-prefixed
/// (u16 big-endian) so no two inputs share an encoding. `K_lat` is derived from the master key ("lat"), so a
/// server without the master key (a phishing server) cannot produce it, and the device refuses to send its
/// password when the LAT it is shown differs from the one it stored.
struct LedgerAuthTokenDeriver: Sendable {
    let key: SymmetricKey

    func lat(userGUID: String, credentialID: String, version: Int64) -> LedgerAuthToken {
        let fields = Self.encode([userGUID, credentialID, String(version)])
        let token = HMAC<SHA256>.authenticationCode(for: Array("vettid-lat/v1".utf8) + fields, using: key)
        let id = HMAC<SHA256>.authenticationCode(for: Array("vettid-lat-id/v1".utf8) + fields, using: key)
        return LedgerAuthToken(
            latID: Base64URL.encode(Array(id).prefix(16)), token: Base64URL.encode(Array(token)), version: Int(version))
    }

    private static func encode(_ fields: [String]) -> [UInt8] {
        var bytes: [UInt8] = []
        for field in fields {
            let utf8 = Array(field.utf8)
            bytes += [UInt8(truncatingIfNeeded: utf8.count >> 8), UInt8(truncatingIfNeeded: utf8.count)] + utf8
        }
        return bytes
    }
}
