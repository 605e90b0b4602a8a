// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
import VettIDClient
import VettIDCore
import VettIDMessaging

@testable import VettIDViewModels

@MainActor
@Suite("Secrets view model")
struct SecretsViewModelTests {
    /// A view model over `source` whose unlock step records its calls in `log` (and fails with `executeError`).
    func model(_ source: FakeSecretsSource, log: CallLog = CallLog(), executeError: APIError? = nil)
        -> SecretsViewModel
    {
        let unlock = VaultAuthViewModel(
            actions: VaultAuthViewModel.Actions(
                requestAction: {
                    log.calls.append("request")
                    return sampleVaultAction()
                },
                execute: { action, password in
                    log.calls.append("execute \(action.id) \(password)")
                    if let executeError { throw executeError }
                    return VaultSession(
                        token: "vault-session", expiresAt: Date(timeIntervalSince1970: 1_800_000_900),
                        credential: CredentialPackage(
                            userGUID: "user-1", credentialID: "cred-1", sealedCredential: "c2VhbGVk", keyVersion: 2,
                            ledgerAuthToken: LedgerAuthToken(latID: "lat-1", token: "dG9rZW4y", version: 2),
                            transactionKeys: []))
                }))
        return SecretsViewModel(source: source, unlock: unlock)
    }

    @Test("load: loading, then the list (or empty) and its screen")
    func load() async {
        let source = FakeSecretsSource()
        await source.script(lists: [.success(sampleList([sampleSecret("wifi"), sampleSecret("bank-pin")]))])
        let model = model(source)
        #expect(model.state.activity == .loading)
        #expect(model.screen(format: usUTC).showsProgress)
        await model.load()
        #expect(model.state.activity == .idle)
        #expect(model.screen(format: usUTC).rows.map(\.name) == ["bank-pin", "wifi"])
        #expect(await source.calls == ["list"])

        let emptySource = FakeSecretsSource()
        await emptySource.script(lists: [.success(sampleList([]))])
        let empty = self.model(emptySource)
        await empty.load()
        #expect(empty.state.isEmpty)
        #expect(empty.screen(format: usUTC).emptyMessage != nil)
    }

    @Test("locked until vault authentication: the password unlocks, then the same value is read again")
    func unlockThenReveal() async {
        let source = FakeSecretsSource()
        await source.script(
            lists: [.success(sampleList([sampleSecret("bank-pin")]))],
            gets: [.failure(vaultError(.vaultAuthenticationRequired)), .success(sampleValue("bank-pin", "2468"))])
        let log = CallLog()
        let model = model(source, log: log)
        await model.load()
        await model.reveal("bank-pin")
        #expect(model.state.activity == .locked(name: "bank-pin"))
        #expect(model.screen(format: usUTC).unlock?.submit.kind == .unlock)
        #expect(log.calls.isEmpty, "nothing is sent before the member types the password")

        model.unlock.password = "vault password"
        await model.submitUnlock()
        #expect(log.calls == ["request", "execute action-1 vault password"])
        #expect(await source.calls == ["list", "get bank-pin", "get bank-pin"])
        guard case .revealed(let revealed) = model.state.activity else {
            Issue.record("not revealed: \(model.state.activity)")
            return
        }
        #expect(revealed.value.utf8Text == "2468")
        #expect(model.screen(format: usUTC).rows[0].value?.text == "2468")
        #expect(model.unlock.state == .idle, "the password step is back to its empty field")
        #expect(model.unlock.password.isEmpty)

        model.hide()
        #expect(model.state.activity == .idle)
        #expect(model.screen(format: usUTC).rows[0].value == nil)
    }

    @Test("a wrong vault password stays locked with the unlock's message; Cancel goes back to the list")
    func wrongPassword() async {
        let source = FakeSecretsSource()
        await source.script(
            lists: [.success(sampleList([sampleSecret("bank-pin")]))],
            gets: [.failure(vaultError(.vaultAuthenticationRequired))])
        let model = model(
            source, executeError: APIError(code: .invalidCredentials, status: 401, description: "wrong"))
        await model.load()
        await model.reveal("bank-pin")
        model.unlock.password = "wrong"
        await model.submitUnlock()
        #expect(model.state.activity == .locked(name: "bank-pin"))
        #expect(model.screen(format: usUTC).unlock?.error == "Wrong password.")
        #expect(await source.calls == ["list", "get bank-pin"], "no second read without an unlock")
        model.hide()
        #expect(model.state.activity == .idle)
        #expect(model.unlock.state == .idle)
        #expect(model.screen(format: usUTC).unlock == nil)
    }

    @Test("an unavailable vault is an error with retry; retry re-runs the failed request")
    func errorThenRetry() async {
        let source = FakeSecretsSource()
        await source.script(
            lists: [.failure(vaultError(.unavailable)), .success(sampleList([sampleSecret("bank-pin", version: 2)]))],
            deletes: [.failure(vaultError(.unavailable)), .success(sampleSecret("bank-pin", version: 2))])
        let model = model(source)
        await model.load()
        #expect(model.screen(format: usUTC).banner?.action?.kind == .retry)
        await model.retry()
        #expect(model.state.secrets?.count == 1)
        await model.delete("bank-pin")
        guard case .failed(let failure) = model.state.activity else {
            Issue.record("not failed")
            return
        }
        #expect(failure.operation == .delete(name: "bank-pin"))
        await model.retry()
        #expect(model.state.isEmpty)
        #expect(
            await source.calls == [
                "list", "list", "delete bank-pin expected 2", "delete bank-pin expected 2",
            ])
    }

    @Test("save: a new name with expected version 0, then the form is cleared; a retried save sends the same value")
    func save() async {
        let source = FakeSecretsSource()
        await source.script(
            lists: [.success(sampleList([]))],
            puts: [.failure(vaultError(.unavailable)), .success(sampleSecret("door", version: 1, size: 4))])
        let model = model(source)
        await model.load()
        model.draftName = "door"
        model.draftValue = "1234"
        #expect(model.screen(format: usUTC).composer?.save.isEnabled == true)
        await model.save()
        #expect(model.draftValue == "1234", "kept after a failure")
        await model.retry()
        #expect(model.state.secrets == [sampleSecret("door", version: 1, size: 4)])
        #expect(model.draftName.isEmpty)
        #expect(model.draftValue.isEmpty)
        #expect(await source.calls == ["list", "put door expected 0 1234", "put door expected 0 1234"])
    }

    @Test("a bad name is refused before anything is sent")
    func badNameNotSent() async {
        let source = FakeSecretsSource()
        await source.script(lists: [.success(sampleList([]))])
        let model = model(source)
        await model.load()
        model.draftName = " door"
        model.draftValue = "1234"
        await model.save()
        guard case .failed(let failure) = model.state.activity else {
            Issue.record("not failed")
            return
        }
        #expect(failure.code == "invalid_secret_name")
        #expect(await source.calls == ["list"])
    }

    @Test("over a VaultService: the service's secrets, unavailable until a connection is attached")
    func overVaultService() async throws {
        let store = InMemorySecureStore()
        let service = VaultService(
            configuration: try VaultServiceConfiguration(
                baseURL: URL(string: "https://vault.example.com")!, deviceType: .linux),
            deviceKeyStore: SoftwareDeviceKeyStore(store: store), attester: DevelopmentTokenAttester(token: "dev"),
            store: store)
        let model = SecretsViewModel(service: service)
        await model.load()
        guard case .failed(let failure) = model.state.activity else {
            Issue.record("not failed: \(model.state.activity)")
            return
        }
        #expect(failure.code == "vault_unavailable")
        #expect(failure.operation == .load)
        #expect(model.screen(format: usUTC).banner?.action?.kind == .retry)
    }
}
