// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
public import VettIDCore

/// A single-use action issued by `actionRequest`: the first half of a vault authentication.
public struct VaultAction: Sendable, Hashable, CustomStringConvertible {
    /// The action id (the HPKE context of the password envelope).
    public let id: String
    /// The DPoP-bound, single-use action token, sent as `Authorization: DPoP <token>` to `authExecute`.
    public let token: String
    /// When the action expires.
    public let expiresAt: Date
    /// The server's current LAT; compare it with the stored one before sending anything.
    public let ledgerAuthToken: LedgerAuthToken
    /// The transaction key the password must be sealed to.
    public let useKeyID: String
    /// The server's copy of that key (the SDK seals to its stored copy and refuses a different one).
    public let transactionKey: TransactionKey

    /// Creates an action.
    public init(
        id: String, token: String, expiresAt: Date, ledgerAuthToken: LedgerAuthToken, useKeyID: String,
        transactionKey: TransactionKey
    ) {
        self.id = id
        self.token = token
        self.expiresAt = expiresAt
        self.ledgerAuthToken = ledgerAuthToken
        self.useKeyID = useKeyID
        self.transactionKey = transactionKey
    }

    /// Shows the id and key id, never the token or the LAT's token.
    public var description: String { "VaultAction(\(id), key: \(useKeyID), \(ledgerAuthToken))" }
}
