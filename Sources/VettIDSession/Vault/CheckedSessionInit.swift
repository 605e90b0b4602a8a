// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// An init that passed the vault's checks, waiting for the worker's device check.

/// An init whose layout, member, suites, time, nonce and device signature the vault checked
/// (``SessionResponder/check(_:memberGUID:)``).
///
/// Before ``SessionResponder/accept(_:identity:)``, the worker checks that ``deviceThumbprint`` is an enrolled,
/// unrevoked device of ``memberGUID`` (`unknown_device` otherwise) and picks the identity key to sign with.
public struct CheckedSessionInit: Sendable {
    /// The parsed init.
    public let sessionInit: SessionInit
    /// The init's bytes as received (what `init_hash` and `th` hash).
    public let initBytes: [UInt8]
    /// The suite the vault will use: the app's most preferred offer the vault supports.
    public let suite: SessionSuite
    /// The RFC 7638 thumbprint (`jkt`) of the device key that signed the init.
    public let deviceThumbprint: String

    /// The member the init is for (equal to the subject's).
    public var memberGUID: String { sessionInit.memberGUID }
    /// The kid of the vault key the app expects.
    public var expectedVaultKID: String { sessionInit.vaultKID }

    init(sessionInit: SessionInit, initBytes: [UInt8], suite: SessionSuite) {
        self.sessionInit = sessionInit
        self.initBytes = initBytes
        self.suite = suite
        self.deviceThumbprint = sessionInit.deviceThumbprint
    }
}
