// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
import VettIDClient
import VettIDCore

@testable import VettIDViewModels

/// Scripted answers for the view model's actions (unit tests only).
@MainActor
final class ScriptedVaultStatusActions {
    var statuses: [Result<VaultStatus, APIError>] = []
    var syncs: [Result<VaultSyncResult, APIError>] = []
    var reauthentications: [APIError?] = []
    var calls: [String] = []

    var actions: VaultStatusViewModel.Actions {
        VaultStatusViewModel.Actions(
            fetchStatus: {
                self.calls.append("status")
                guard !self.statuses.isEmpty else { throw APIError(code: .networkError, description: "unscripted") }
                return try self.statuses.removeFirst().get()
            },
            sync: {
                self.calls.append("sync")
                guard !self.syncs.isEmpty else { throw APIError(code: .networkError, description: "unscripted") }
                return try self.syncs.removeFirst().get()
            },
            reauthenticate: {
                self.calls.append("reauthenticate")
                if !self.reauthentications.isEmpty, let error = self.reauthentications.removeFirst() { throw error }
            }
        )
    }
}

let expiredSession = APIError(code: .invalidToken, status: 401, description: "expired")

@MainActor
@Suite("Vault status view model")
struct VaultStatusViewModelTests {
    @Test("refresh maps each status to its state")
    func refreshStates() async {
        let expected: [(VaultStatusValue, VaultState)] = [
            (.notEnrolled, .notEnrolled),
            (.pending, .pending),
            (.enrolled, .enrolled(sampleVaultStatus(.enrolled))),
            (.active, .active(sampleVaultStatus(.active))),
            (.error, .error(message: "disk", retryable: true)),
            (
                "frozen",
                .error(
                    message: "The server reported a vault status this app does not know ('frozen'). Update the app.",
                    retryable: false)
            ),
        ]
        for (value, state) in expected {
            let script = ScriptedVaultStatusActions()
            script.statuses = [.success(sampleVaultStatus(value, errorMessage: value == .error ? "disk" : nil))]
            let model = VaultStatusViewModel(actions: script.actions)
            #expect(model.state == .loading)
            await model.refresh()
            #expect(model.state == state)
            #expect(script.calls == ["status"])
        }
    }

    @Test("a network failure is a retryable error; retry succeeds")
    func networkThenRetry() async {
        let script = ScriptedVaultStatusActions()
        script.statuses = [
            .failure(APIError(code: .networkError, description: "offline")), .success(sampleVaultStatus(.active)),
        ]
        let model = VaultStatusViewModel(actions: script.actions)
        await model.refresh()
        #expect(model.state == .error(message: "Cannot reach the server. Check your connection.", retryable: true))
        await model.retry()
        #expect(model.state == .active(sampleVaultStatus(.active)))
        #expect(script.calls == ["status", "status"])
    }

    @Test("a 5xx is a retryable error")
    func serverError() async {
        let script = ScriptedVaultStatusActions()
        script.statuses = [.failure(APIError(code: .internalError, status: 500, description: "boom"))]
        let model = VaultStatusViewModel(actions: script.actions)
        await model.refresh()
        #expect(model.state == .error(message: "The server had a problem. Try again.", retryable: true))
    }

    @Test("a 401 re-authenticates once and retries")
    func reauthenticatesOnce() async {
        let script = ScriptedVaultStatusActions()
        script.statuses = [.failure(expiredSession), .success(sampleVaultStatus(.active))]
        let model = VaultStatusViewModel(actions: script.actions)
        await model.refresh()
        #expect(script.calls == ["status", "reauthenticate", "status"])
        #expect(model.state == .active(sampleVaultStatus(.active)))
    }

    @Test("a second 401 is an error; no second re-authentication")
    func secondUnauthorized() async {
        let script = ScriptedVaultStatusActions()
        script.statuses = [.failure(expiredSession), .failure(expiredSession), .success(sampleVaultStatus(.active))]
        let model = VaultStatusViewModel(actions: script.actions)
        await model.refresh()
        #expect(script.calls == ["status", "reauthenticate", "status"])
        #expect(
            model.state == .error(message: "Your vault session has expired. Unlock your vault again.", retryable: false)
        )
        await model.retry()  // not retryable: nothing happens
        #expect(script.calls.count == 3)
    }

    @Test("re-authentication that fails ends in an error without a retry of the request")
    func reauthenticationFails() async {
        let script = ScriptedVaultStatusActions()
        script.statuses = [.failure(expiredSession)]
        script.reauthentications = [APIError(code: .reauthenticationRequired, description: "no password")]
        let model = VaultStatusViewModel(actions: script.actions)
        await model.refresh()
        #expect(script.calls == ["status", "reauthenticate"])
        #expect(model.state == .error(message: "Unlock your vault to see its status.", retryable: false))
    }

    @Test("sync then status; the result is kept; 409 not_enrolled shows notEnrolled")
    func syncs() async {
        let script = ScriptedVaultStatusActions()
        script.syncs = [
            .success(sampleSyncResult()), .failure(APIError(code: .notEnrolled, status: 409, description: "x")),
        ]
        script.statuses = [.success(sampleVaultStatus(.active))]
        let model = VaultStatusViewModel(actions: script.actions)
        await model.sync()
        #expect(script.calls == ["sync", "status"])
        #expect(model.state == .active(sampleVaultStatus(.active)))
        #expect(model.lastSync == sampleSyncResult())
        await model.sync()
        #expect(model.state == .notEnrolled)
    }

    @Test("a sync refused with 401 re-authenticates once and syncs again")
    func syncReauthenticates() async {
        let script = ScriptedVaultStatusActions()
        script.syncs = [.failure(expiredSession), .success(sampleSyncResult())]
        script.statuses = [.success(sampleVaultStatus(.enrolled))]
        let model = VaultStatusViewModel(actions: script.actions)
        await model.sync()
        #expect(script.calls == ["sync", "reauthenticate", "sync", "status"])
        #expect(model.state == .enrolled(sampleVaultStatus(.enrolled)))
    }
}
