// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import VettIDCore
import VettIDCrypto

/// The client data an App Attest-attested device signs for an action request (docs/protocol.md §5):
/// the UTF-8 JSON `{"action": …, "credential_id": …, "iat": <unix seconds>, "nonce": <base64url random>}`, sent
/// as base64url in `client_data`. The assertion covers `client_data ‖ jkt` (the device key's raw thumbprint),
/// like every attestation object of this project. Freshness: `iat` within five minutes of the server's clock;
/// replay: the assertion counter must increase (compare-and-set).
struct ActionClientData: Decodable, Sendable {
    let action: String
    let credentialID: String
    let iat: Int64
    let nonce: String

    enum CodingKeys: String, CodingKey {
        case action
        case credentialID = "credential_id"
        case iat
        case nonce
    }

    /// The largest accepted difference between `iat` and the server's clock.
    static let maximumSkew: Int64 = 300

    /// Decodes and checks `text` for `action` on `credentialID` at `now`; `nil` when anything differs.
    static func bytes(_ text: String, action: String, credentialID: String, now: Int64) -> [UInt8]? {
        guard let bytes = Base64URL.decode(text), bytes.count <= 1_024,
            let data = try? JSONDecoder().decode(ActionClientData.self, from: Data(bytes)),
            data.action == action, data.credentialID == credentialID, abs(data.iat - now) <= maximumSkew,
            (Base64URL.decode(data.nonce)?.count ?? 0) >= 16
        else { return nil }
        return bytes
    }
}
