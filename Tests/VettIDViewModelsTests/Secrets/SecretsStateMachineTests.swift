// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
import VettIDCore
import VettIDMessaging

@testable import VettIDViewModels

/// A machine that has listed `secrets`.
func listedMachine(_ secrets: [SecretSummary]) -> SecretsStateMachine {
    var machine = SecretsStateMachine()
    _ = machine.load()
    _ = machine.loaded(sampleList(secrets))
    return machine
}

@Suite("Secrets state machine")
struct SecretsStateMachineTests {
    @Test("starts loading; a list arrives sorted by name, ignoring case; an empty one is empty")
    func loading() {
        var machine = SecretsStateMachine()
        #expect(machine.state == SecretsState(activity: .loading))
        #expect(machine.state.secrets == nil)
        #expect(!machine.state.isEmpty)
        #expect(machine.load() == .load)
        #expect(machine.isBusy)
        #expect(machine.load() == .none, "one request at a time")
        #expect(
            machine.loaded(sampleList([sampleSecret("wifi"), sampleSecret("Bank-pin"), sampleSecret("alarm")])) == .none
        )
        #expect(machine.state.activity == .idle)
        #expect(machine.state.secrets?.map(\.name) == ["alarm", "Bank-pin", "wifi"])
        #expect(machine.state.limits == .standard)
        #expect(!machine.isBusy)

        var empty = SecretsStateMachine()
        _ = empty.load()
        _ = empty.loaded(sampleList([]))
        #expect(empty.state.isEmpty)
        #expect(empty.state.activity == .idle)
    }

    @Test("reveal: the value is shown; hide goes back to the list")
    func reveal() throws {
        var machine = listedMachine([sampleSecret("bank-pin")])
        #expect(machine.revealRequested("unknown") == .none, "only a listed name")
        #expect(machine.revealRequested("bank-pin") == .reveal(name: "bank-pin"))
        #expect(machine.state.activity == .revealing(name: "bank-pin"))
        #expect(machine.revealed(sampleValue("bank-pin", "2468")) == .none)
        guard case .revealed(let revealed) = machine.state.activity else {
            Issue.record("not revealed: \(machine.state.activity)")
            return
        }
        #expect(revealed.name == "bank-pin")
        #expect(revealed.value.utf8Text == "2468")
        #expect(machine.hide() == .none)
        #expect(machine.state.activity == .idle)
        #expect(machine.state.secrets?.map(\.name) == ["bank-pin"])
    }

    @Test("locked until vault authentication: unlocked reads the same name again")
    func lockedUntilAuthentication() {
        var machine = listedMachine([sampleSecret("bank-pin"), sampleSecret("wifi")])
        _ = machine.revealRequested("bank-pin")
        #expect(
            machine.failed(vaultError(.vaultAuthenticationRequired), operation: .reveal(name: "bank-pin")) == .none)
        #expect(machine.state.activity == .locked(name: "bank-pin"))
        #expect(!machine.isBusy)
        #expect(machine.retry() == .none, "locked is not a failure to retry: it waits for the unlock")
        #expect(machine.unlocked() == .reveal(name: "bank-pin"))
        #expect(machine.state.activity == .revealing(name: "bank-pin"))
        #expect(machine.unlocked() == .none, "no longer locked")
        _ = machine.revealed(sampleValue("bank-pin", "2468"))
        guard case .revealed(let revealed) = machine.state.activity else {
            Issue.record("not revealed")
            return
        }
        #expect(revealed.name == "bank-pin")
    }

    @Test("lockedOut is the same event; cancelling the unlock goes back to the list")
    func lockedOutAndCancel() {
        var machine = listedMachine([sampleSecret("bank-pin")])
        #expect(machine.lockedOut("bank-pin") == .none)
        #expect(machine.state.activity == .idle, "no read of it was running")
        _ = machine.revealRequested("bank-pin")
        #expect(machine.lockedOut("wifi") == .none)
        #expect(machine.state.activity == .revealing(name: "bank-pin"), "an answer about another name is ignored")
        #expect(machine.lockedOut("bank-pin") == .none)
        #expect(machine.state.activity == .locked(name: "bank-pin"))
        #expect(machine.hide() == .none)
        #expect(machine.state.activity == .idle)
        #expect(machine.unlocked() == .none)
    }

    @Test(
        "an error keeps the list and retry re-runs the failed request",
        arguments: [
            SecretsOperation.load, .reveal(name: "bank-pin"), .delete(name: "bank-pin"), .save(name: "bank-pin"),
        ])
    func errorWithRetry(operation: SecretsOperation) throws {
        var machine = listedMachine([sampleSecret("bank-pin", version: 2)])
        let first: SecretsStateMachine.Effect
        switch operation {
        case .load: first = machine.load()
        case .reveal(let name): first = machine.revealRequested(name)
        case .delete(let name): first = machine.deleteRequested(name)
        case .save(let name): first = machine.saveRequested(name: name, value: SecretBytes(utf8: "1357"))
        }
        #expect(first != .none)
        #expect(machine.failed(vaultError(.unavailable), operation: operation) == .none)
        guard case .failed(let failure) = machine.state.activity else {
            Issue.record("not failed: \(machine.state.activity)")
            return
        }
        #expect(failure.operation == operation)
        #expect(failure.retryable)
        #expect(failure.code == "vault_unavailable")
        #expect(failure.message.hasSuffix("your vault cannot be reached. Check your connection and try again."))
        #expect(machine.state.secrets?.map(\.name) == ["bank-pin"], "the list stays")
        #expect(!machine.isBusy)
        #expect(machine.retry() == first, "the same request, with the same value and version")
        #expect(machine.isBusy)
        #expect(machine.retry() == .none, "no longer failed")
    }

    @Test("a failure that a retry cannot fix offers none")
    func notRetryable() {
        var machine = listedMachine([sampleSecret("bank-pin", version: 2)])
        _ = machine.deleteRequested("bank-pin")
        _ = machine.failed(vaultError(.versionConflict), operation: .delete(name: "bank-pin"))
        #expect(
            machine.state.activity
                == .failed(
                    SecretsFailure(
                        operation: .delete(name: "bank-pin"),
                        message:
                            "“bank-pin” could not be deleted: it was changed on another device. Reload to see the latest version.",
                        retryable: false, code: "version_conflict")))
        #expect(machine.retry() == .none)
        #expect(machine.load() == .load, "reload instead")
    }

    @Test("failures read as the screen needs them")
    func failureMessages() {
        let cases: [(VaultMessageError.Code, SecretsOperation, String)] = [
            (
                .secretLimitReached, .save(name: "x"),
                "“x” could not be saved: your vault is full. Delete a secret to make room."
            ),
            (.secretTooLarge, .save(name: "x"), "“x” could not be saved: a value is at most 16384 bytes."),
            (
                .invalidSecretName, .save(name: " x"),
                "A secret’s name is 1 to 128 bytes long, with no control characters and no space at either end."
            ),
            (.secretNotFound, .reveal(name: "x"), "“x” could not be shown: it is no longer in your vault."),
            (.handlerFailed, .load, "Your secrets could not be loaded: refused"),
        ]
        for (code, operation, message) in cases {
            let failure = SecretsStateMachine.failure(for: vaultError(code), operation: operation, limits: .standard)
            #expect(failure.message == message)
            #expect(!failure.retryable, "\(code)")
            #expect(failure.code == code.rawValue)
        }
    }

    @Test("a value is read about the name asked for; a stale or misdirected answer is not shown")
    func answersAboutTheRunningRequest() {
        var machine = listedMachine([sampleSecret("bank-pin"), sampleSecret("wifi")])
        #expect(machine.revealed(sampleValue("bank-pin", "2468")) == .none)
        #expect(machine.state.activity == .idle, "no read was running")
        _ = machine.revealRequested("bank-pin")
        #expect(machine.revealRequested("wifi") == .none, "one request at a time")
        #expect(machine.loaded(sampleList([])) == .none)
        #expect(machine.state.secrets?.count == 2, "a list nobody asked for is ignored")
        _ = machine.revealed(sampleValue("wifi", "hunter2"))
        guard case .failed(let failure) = machine.state.activity else {
            Issue.record("an answer about another secret must not be shown")
            return
        }
        #expect(failure.code == "invalid_payload")
        #expect(failure.operation == .reveal(name: "bank-pin"))
        #expect(!failure.message.contains("hunter2"))
    }

    @Test("save: a new name expects version 0, a listed one its version; the list shows the stored version")
    func save() {
        var machine = listedMachine([sampleSecret("wifi", version: 3)])
        #expect(
            machine.saveRequested(name: "bank-pin", value: SecretBytes(utf8: "2468"))
                == .save(name: "bank-pin", value: SecretBytes(utf8: "2468"), expectedVersion: 0))
        #expect(machine.state.activity == .saving(name: "bank-pin"))
        #expect(machine.saved(sampleSecret("bank-pin", version: 1)) == .none)
        #expect(machine.state.activity == .idle)
        #expect(machine.state.secrets?.map(\.name) == ["bank-pin", "wifi"])

        #expect(
            machine.saveRequested(name: "wifi", value: SecretBytes(utf8: "new"))
                == .save(name: "wifi", value: SecretBytes(utf8: "new"), expectedVersion: 3))
        _ = machine.saved(sampleSecret("wifi", version: 4, size: 3))
        #expect(machine.state.summary(named: "wifi") == sampleSecret("wifi", version: 4, size: 3))
        #expect(machine.state.secrets?.count == 2)
    }

    @Test("save checks the name and size first: a bad one fails without a request")
    func saveChecksLimits() {
        var machine = listedMachine([])
        #expect(machine.saveRequested(name: "", value: SecretBytes(utf8: "x")) == .none)
        guard case .failed(let failure) = machine.state.activity else {
            Issue.record("not failed")
            return
        }
        #expect(failure.code == "invalid_secret_name")
        #expect(!machine.isBusy)
        #expect(machine.retry() == .none)
        let large = SecretBytes(Data(count: VaultDataLimits.standard.maxValueBytes + 1))
        #expect(machine.saveRequested(name: "big", value: large) == .none)
        #expect(
            machine.state.activity
                == .failed(
                    SecretsFailure(
                        operation: .save(name: "big"),
                        message: "“big” could not be saved: a value is at most 16384 bytes.",
                        retryable: false, code: "secret_too_large")))
        var unlisted = SecretsStateMachine()
        #expect(unlisted.saveRequested(name: "a", value: SecretBytes(utf8: "b")) == .none, "not listed yet")
        #expect(unlisted.state.activity == .loading)
    }

    @Test("delete: sends the listed version; a secret already gone counts as deleted")
    func delete() {
        var machine = listedMachine([sampleSecret("bank-pin", version: 2), sampleSecret("wifi")])
        #expect(machine.deleteRequested("nope") == .none)
        #expect(machine.deleteRequested("bank-pin") == .delete(name: "bank-pin", expectedVersion: 2))
        #expect(machine.state.activity == .deleting(name: "bank-pin"))
        #expect(machine.deleted("wifi") == .none, "not the running request")
        #expect(machine.deleted("bank-pin") == .none)
        #expect(machine.state.secrets?.map(\.name) == ["wifi"])
        #expect(machine.state.activity == .idle)

        _ = machine.deleteRequested("wifi")
        #expect(machine.failed(vaultError(.secretNotFound), operation: .delete(name: "wifi")) == .none)
        #expect(machine.state.isEmpty)
        #expect(machine.state.activity == .idle)
    }

    @Test("a read of a secret deleted elsewhere takes it off the list")
    func revealGone() {
        var machine = listedMachine([sampleSecret("bank-pin"), sampleSecret("wifi")])
        _ = machine.revealRequested("bank-pin")
        _ = machine.failed(vaultError(.secretNotFound), operation: .reveal(name: "bank-pin"))
        #expect(machine.state.secrets?.map(\.name) == ["wifi"])
        guard case .failed(let failure) = machine.state.activity else {
            Issue.record("not failed")
            return
        }
        #expect(!failure.retryable)
    }

    @Test("a failure of another request than the running one is ignored")
    func staleFailure() {
        var machine = listedMachine([sampleSecret("bank-pin")])
        _ = machine.revealRequested("bank-pin")
        #expect(machine.failed(vaultError(.unavailable), operation: .load) == .none)
        #expect(machine.state.activity == .revealing(name: "bank-pin"))
    }

    @Test("a retried save sends the value kept for it; another request drops it")
    func pendingSaveDropped() {
        var machine = listedMachine([sampleSecret("bank-pin")])
        _ = machine.saveRequested(name: "door", value: SecretBytes(utf8: "1234"))
        _ = machine.failed(vaultError(.unavailable), operation: .save(name: "door"))
        #expect(machine.load() == .load)
        _ = machine.failed(vaultError(.unavailable), operation: .load)
        #expect(machine.retry() == .load)
        _ = machine.loaded(sampleList([sampleSecret("bank-pin")]))
        #expect(machine.pendingSave == nil)
    }

    @Test("no description of a state, an effect or a revealed value shows a secret's bytes")
    func noValueInDescriptions() {
        var machine = listedMachine([sampleSecret("bank-pin")])
        _ = machine.revealRequested("bank-pin")
        _ = machine.revealed(sampleValue("bank-pin", "correct-horse-2468"))
        let effect = SecretsStateMachine.Effect.save(
            name: "bank-pin", value: SecretBytes(utf8: "correct-horse-2468"), expectedVersion: 1)
        var dumped = ""
        dump(machine.state, to: &dumped)
        dump(effect, to: &dumped)
        let texts = [
            String(describing: machine.state), String(reflecting: machine.state), "\(machine.state.activity)",
            String(describing: effect), String(reflecting: effect), dumped,
        ]
        for text in texts {
            #expect(!shows("correct-horse-2468", in: text), "\(text)")
        }
        var rawDump = ""
        dump(sampleValue("bank-pin", "correct-horse-2468"), to: &rawDump)
        #expect(shows("correct-horse-2468", in: rawDump), "the check sees the bytes `dump` prints for a Data")
        #expect(dumped.contains("bank-pin"), "the name is not secret")
        #expect(String(describing: SecretBytes(utf8: "2468")) == "<secret: 4 bytes>")
        #expect(SecretBytes(Data([0xFF, 0xFE])).utf8Text == nil)
        #expect(SecretBytes(utf8: "é").utf8Text == "é")
    }
}
