// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

/// What the server hands the device at enrollment and after each authentication, stored whole and atomically.
///
/// The device cannot read ``sealedCredential`` (it is sealed under a credential key only the server holds); it
/// presents it back at authentication together with ``keyVersion``. ``ledgerAuthToken`` is compared with the
/// server's LAT before any password is sent; ``transactionKeys`` are the unused one-time keys a password may be
/// sealed to.
public struct CredentialPackage: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The member's id.
    public var userGUID: String
    /// The credential's id.
    public var credentialID: String
    /// The sealed credential blob, base64url (opaque to the device).
    public var sealedCredential: String
    /// The version of the credential key and blob.
    public var keyVersion: Int
    /// The current LAT.
    public var ledgerAuthToken: LedgerAuthToken
    /// The unused transaction keys.
    public var transactionKeys: [TransactionKey]

    /// Creates a package.
    public init(
        userGUID: String,
        credentialID: String,
        sealedCredential: String,
        keyVersion: Int,
        ledgerAuthToken: LedgerAuthToken,
        transactionKeys: [TransactionKey]
    ) {
        self.userGUID = userGUID
        self.credentialID = credentialID
        self.sealedCredential = sealedCredential
        self.keyVersion = keyVersion
        self.ledgerAuthToken = ledgerAuthToken
        self.transactionKeys = transactionKeys
    }

    /// The unused transaction key with `id`, if the package still holds it.
    public func transactionKey(id: String) -> TransactionKey? {
        transactionKeys.first { $0.keyID == id }
    }

    /// Shows ids and counts, never the blob or the LAT's token.
    public var description: String {
        "CredentialPackage(user: \(userGUID), credential: \(credentialID), key version \(keyVersion), \(ledgerAuthToken), \(transactionKeys.count) transaction keys)"
    }

    enum CodingKeys: String, CodingKey {
        case userGUID = "user_guid"
        case credentialID = "credential_id"
        case sealedCredential = "sealed_credential"
        case keyVersion = "key_version"
        case ledgerAuthToken = "ledger_auth_token"
        case transactionKeys = "transaction_keys"
    }
}
