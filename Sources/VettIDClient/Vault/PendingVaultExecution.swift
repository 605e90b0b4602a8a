// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
public import VettIDCore
public import VettIDCrypto

/// An auth execute the device sent but got no answer to (the network failed or the server stopped after it
/// committed). The server keeps the package that action issued, so the device repeats the exact request — same
/// action, same action token, same envelope — to recover the rotated package while the action token is valid (two
/// minutes). Without this, a lost reply would leave the device one credential version behind the server and every
/// later authentication would stop at `lat_mismatch`. Stored next to the credential, never logged.
public struct PendingVaultExecution: Sendable, Hashable, Codable {
    public var actionID: String
    public var actionToken: String
    public var actionExpiresAt: Date
    public var ledgerAuthToken: LedgerAuthToken
    public var transactionKey: TransactionKey
    /// The package as sent (the transaction key already removed).
    public var package: CredentialPackage
    /// The sealed password as sent (the key it is sealed to is spent; it cannot be opened again).
    public var envelope: EncryptedPayload

    /// Records what ``VaultAuthenticator/execute(_:password:)`` is about to send.
    public init(action: VaultAction, package: CredentialPackage, envelope: EncryptedPayload) {
        actionID = action.id
        actionToken = action.token
        actionExpiresAt = action.expiresAt
        ledgerAuthToken = action.ledgerAuthToken
        transactionKey = action.transactionKey
        self.package = package
        self.envelope = envelope
    }

    /// The action again, for the repeat.
    public var action: VaultAction {
        VaultAction(
            id: actionID, token: actionToken, expiresAt: actionExpiresAt, ledgerAuthToken: ledgerAuthToken,
            useKeyID: transactionKey.keyID, transactionKey: transactionKey)
    }
}
