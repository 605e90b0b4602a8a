// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import VettIDAttestation
import VettIDCrypto
import VettIDVerification

/// A member's passkey as the server keeps it (WebAuthn Level 3 §7.1 step 26's credential record).
struct PasskeyRecord: Sendable, Equatable {
    /// The credential id.
    let credentialID: [UInt8]
    let userID: UUID
    let publicKey: COSEKey
    /// The last signature counter accepted.
    let signCount: UInt32
    /// BE at registration; an assertion with another value is refused.
    let backupEligible: Bool
    /// BS at the last ceremony.
    let backupState: Bool
    let transports: [String]
    /// What the member calls it.
    let name: String
    /// `none` or `packed`.
    let attestationFormat: String
    let createdAtMilliseconds: Int64
    let lastUsedAtMilliseconds: Int64?

    /// The credential id as the wire and the store write it: base64url without padding.
    var id: String { Base64URL.encode(credentialID) }
    var createdAt: Date { Date(timeIntervalSince1970: Double(createdAtMilliseconds) / 1000) }
    var lastUsedAt: Date? { lastUsedAtMilliseconds.map { Date(timeIntervalSince1970: Double($0) / 1000) } }

    /// The credential as the relying party's authentication checks need it.
    func stored(ownerUserHandle: [UInt8]) -> PasskeyRelyingParty.StoredCredential {
        .init(
            credentialID: credentialID, publicKey: publicKey, signCount: signCount, backupEligible: backupEligible,
            ownerUserHandle: ownerUserHandle)
    }
}

/// A ceremony the server started: what its single-use challenge was issued for.
struct PasskeyCeremony: Sendable, Equatable {
    enum Kind: String, Sendable {
        case registration
        case authentication
    }

    let kind: Kind
    /// The member adding a passkey, or the member an authentication was started for by email; `nil` for a
    /// discoverable sign-in.
    let userID: UUID?
    /// The `allowCredentials` of an authentication (empty for a discoverable one).
    let allowedCredentialIDs: [[UInt8]]
}
