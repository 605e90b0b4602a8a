// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import VettIDCore
import VettIDCrypto

/// The server's side of sealed credentials: per-credential keys (sealed at rest, ``SealingKeys``) and
/// the LAT. Every authentication rotates the key: a new random key for the next version seals the new blob.
struct CredentialKeyring: Sendable {
    let sealer: SecretSealer
    let lat: LedgerAuthTokenDeriver

    init(keys: ServerKeys, sealing: SealingKeys) {
        sealer = SecretSealer(keys: sealing, purpose: "credential-key-at-rest")
        lat = LedgerAuthTokenDeriver(key: keys.derivedKey(purpose: "lat"))
    }

    static func label(credentialID: String, version: Int64) -> String {
        "vettid-credential-key/v1:\(credentialID):\(version)"
    }

    /// Seals `contents` under a fresh credential key for its credential id and version.
    /// - Returns: the credential key sealed for storage, and the sealed credential for the device.
    func seal(_ contents: CredentialContents) throws -> (sealedKey: String, sealedCredential: String) {
        let key = SymmetricKey(size: .bits256)
        let sealedKey = try sealer.seal(
            key, label: Self.label(credentialID: contents.credentialID, version: contents.version))
        return (sealedKey, try contents.seal(with: key))
    }

    /// Opens a device's sealed credential with the stored key of `credential` at its current version.
    func open(_ sealedCredential: String, for credential: VaultCredential) throws -> CredentialContents? {
        guard
            let raw = sealer.open(
                credential.sealedKey,
                label: Self.label(credentialID: credential.credentialID, version: credential.keyVersion))
        else { throw StoreCorruption(detail: "a sealed credential key does not open") }
        return CredentialContents.open(
            sealedCredential, with: SymmetricKey(data: raw), credentialID: credential.credentialID,
            version: credential.keyVersion)
    }
}

/// What the device stores after finalize and after every authentication (docs/protocol.md §4).
struct CredentialPackage: Codable, Sendable, Equatable {
    let userGUID: String
    let credentialID: String
    let sealedCredential: String
    let keyVersion: Int64
    let lat: LedgerAuthToken
    let transactionKeys: [TransactionPublicKey]
}
