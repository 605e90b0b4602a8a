// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
import VettIDClient
import VettIDCore

@testable import VettIDViewModels

@MainActor
@Suite("Vault auth view model")
struct VaultAuthViewModelTests {
    func actions(_ log: CallLog, requestError: APIError? = nil, executeError: APIError? = nil)
        -> VaultAuthViewModel.Actions
    {
        VaultAuthViewModel.Actions(
            requestAction: {
                log.calls.append("request")
                if let requestError { throw requestError }
                return sampleVaultAction()
            },
            execute: { action, password in
                log.calls.append("execute \(action.id) \(password)")
                if let executeError { throw executeError }
                return VaultSession(
                    token: "vault-session",
                    expiresAt: Date(timeIntervalSince1970: 1_800_000_900),
                    credential: CredentialPackage(
                        userGUID: "user-1", credentialID: "cred-1", sealedCredential: "c2VhbGVk", keyVersion: 2,
                        ledgerAuthToken: LedgerAuthToken(latID: "lat-1", token: "dG9rZW4y", version: 2),
                        transactionKeys: []
                    )
                )
            }
        )
    }

    @Test("unlocks: request, then execute with the password; the session is kept, the field cleared")
    func unlocks() async {
        let log = CallLog()
        let model = VaultAuthViewModel(actions: actions(log))
        model.password = "secret"
        await model.submit()
        #expect(log.calls == ["request", "execute action-1 secret"])
        #expect(model.state == .authenticated(userGUID: "user-1"))
        #expect(model.session?.token == "vault-session")
        #expect(model.password.isEmpty)
        model.lock()
        #expect(model.session == nil)
        #expect(model.state == .idle)
    }

    @Test("a LAT mismatch never reaches execute")
    func latMismatchStops() async {
        let log = CallLog()
        let model = VaultAuthViewModel(
            actions: actions(log, requestError: APIError(code: .latMismatch, status: nil, description: "x")))
        model.password = "secret"
        await model.submit()
        #expect(log.calls == ["request"])
        guard case .failed(let failure) = model.state else { Issue.record("not failed"); return }
        #expect(failure.code == "lat_mismatch")
        #expect(model.password == "secret")
    }

    @Test("a wrong password fails without retry")
    func wrongPassword() async {
        let log = CallLog()
        let model = VaultAuthViewModel(
            actions: actions(log, executeError: APIError(code: .invalidCredentials, status: 401, description: "x")))
        model.password = "wrong"
        await model.submit()
        #expect(
            model.state
                == .failed(VaultAuthFailure(message: "Wrong password.", retryable: false, code: "invalid_credentials")))
        #expect(model.session == nil)
    }
}
