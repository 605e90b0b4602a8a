// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
import VettIDClient
import VettIDCore

@testable import VettIDViewModels

/// An action for tests.
func sampleVaultAction(id: String = "action-1") -> VaultAction {
    VaultAction(
        id: id,
        token: "action-token",
        expiresAt: Date(timeIntervalSince1970: 1_800_000_000),
        ledgerAuthToken: LedgerAuthToken(latID: "lat-1", token: "dG9rZW4", version: 1),
        useKeyID: "tk-2",
        transactionKey: TransactionKey(keyID: "tk-2", publicKey: "3p7bfXt9wbTTW2HC7OQ1Nz-DQ8hbeGdNrfx-FG-IK08")
    )
}

@Suite("Vault auth state machine")
struct VaultAuthStateMachineTests {
    @Test("the password is handed out only after the action (and its LAT) came back")
    func passwordAfterAction() {
        var machine = VaultAuthStateMachine()
        #expect(machine.submit(password: "secret") == .requestAction)
        #expect(machine.state == .authenticating(.verifyingServer))
        let action = sampleVaultAction()
        #expect(machine.actionReceived(action) == .execute(action, password: "secret"))
        #expect(machine.state == .authenticating(.sendingPassword))
        #expect(machine.authenticated(userGUID: "user-1") == .none)
        #expect(machine.state == .authenticated(userGUID: "user-1"))
    }

    @Test("a LAT mismatch ends the attempt: a late action gets no password")
    func latMismatch() {
        var machine = VaultAuthStateMachine()
        _ = machine.submit(password: "secret")
        #expect(machine.failed(APIError(code: .latMismatch, description: "x")) == .none)
        guard case .failed(let failure) = machine.state else { Issue.record("not failed"); return }
        #expect(failure.code == "lat_mismatch")
        #expect(!failure.retryable)
        #expect(failure.message.contains("not sent"))
        #expect(machine.actionReceived(sampleVaultAction()) == .none)
    }

    @Test(
        "failures read as the screen needs them",
        arguments: [
            (APIError.Code.invalidCredentials, 401, false, "Wrong password."),
            (.credentialLocked, 423, false, "Too many wrong passwords: your vault credential is locked."),
            (.networkError, 0, true, "Cannot reach the server. Check your connection."),
            (.internalError, 500, true, "The server had a problem. Try again."),
            (.noTransactionKey, 0, false, "This device has no unused keys left. Sync the vault, then try again."),
        ])
    func failures(code: APIError.Code, status: Int, retryable: Bool, message: String) {
        var machine = VaultAuthStateMachine()
        _ = machine.submit(password: "secret")
        _ = machine.failed(APIError(code: code, status: status == 0 ? nil : status, description: "x"))
        #expect(machine.state == .failed(VaultAuthFailure(message: message, retryable: retryable, code: code.rawValue)))
    }

    @Test("an empty password is refused locally; a submission while busy is ignored")
    func localChecks() {
        var machine = VaultAuthStateMachine()
        #expect(machine.submit(password: "") == .none)
        guard case .failed(let failure) = machine.state else { Issue.record("not failed"); return }
        #expect(failure.code == "empty_password")
        #expect(machine.submit(password: "secret") == .requestAction)
        #expect(machine.submit(password: "other") == .none)
        #expect(machine.reset() == .none)
        #expect(machine.state == .idle)
    }
}
