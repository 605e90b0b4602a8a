// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// An open enrollment session (the answer to `enrollStart`), bound to the device key that started it.
public struct EnrollmentSession: Sendable, Hashable, CustomStringConvertible {
    /// The session id (the HPKE context of the password envelope).
    public let id: String
    /// The DPoP-bound enrollment token, sent as `Authorization: DPoP <token>` on the later steps.
    public let token: String
    /// When the session expires (the server answers 410 `session_expired` afterwards).
    public let expiresAt: Date
    /// The member's id.
    public let userGUID: String
    /// The one-time transaction keys the server issued.
    public let transactionKeys: [TransactionKey]
    /// The id of the key the password must be sealed to.
    public let passwordKeyID: String
    /// The step the server expects next.
    public let nextStep: EnrollmentStep
    /// Whether the server requires a device attestation before the password.
    public let attestationRequired: Bool
    /// The raw attestation challenge (32 bytes), when attestation is required.
    public let attestationChallenge: [UInt8]?

    /// Creates a session.
    public init(
        id: String,
        token: String,
        expiresAt: Date,
        userGUID: String,
        transactionKeys: [TransactionKey],
        passwordKeyID: String,
        nextStep: EnrollmentStep,
        attestationRequired: Bool,
        attestationChallenge: [UInt8]?
    ) {
        self.id = id
        self.token = token
        self.expiresAt = expiresAt
        self.userGUID = userGUID
        self.transactionKeys = transactionKeys
        self.passwordKeyID = passwordKeyID
        self.nextStep = nextStep
        self.attestationRequired = attestationRequired
        self.attestationChallenge = attestationChallenge
    }

    /// The key named by ``passwordKeyID``.
    public var passwordKey: TransactionKey? { transactionKeys.first { $0.keyID == passwordKeyID } }

    /// Shows the session id and next step, never the token or the challenge.
    public var description: String {
        "EnrollmentSession(\(id), next: \(nextStep), attestation required: \(attestationRequired))"
    }
}
