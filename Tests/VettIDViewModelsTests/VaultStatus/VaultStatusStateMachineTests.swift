// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
import VettIDClient
import VettIDCore

@testable import VettIDViewModels

func sampleVaultStatus(_ value: VaultStatusValue, errorMessage: String? = nil) -> VaultStatus {
    VaultStatus(
        status: value, userGUID: "user-1", transactionKeysRemaining: 12, credentialVersion: 2,
        errorMessage: errorMessage)
}

func sampleSyncResult() -> VaultSyncResult {
    VaultSyncResult(
        status: .keysReplenished, lastSyncAt: Date(timeIntervalSince1970: 1_893_456_000), transactionKeysRemaining: 20,
        newTransactionKeys: [], credentialVersion: 2, storedTransactionKeys: 20
    )
}

@Suite("Vault status state machine")
struct VaultStatusStateMachineTests {
    @Test("starts loading; every known status maps to its state")
    func statusMapping() {
        #expect(VaultStatusStateMachine().state == .loading)
        let cases: [(VaultStatusValue, VaultState)] = [
            (.notEnrolled, .notEnrolled),
            (.pending, .pending),
            (.enrolled, .enrolled(sampleVaultStatus(.enrolled))),
            (.active, .active(sampleVaultStatus(.active))),
            (.error, .error(message: "The vault reported an error.", retryable: true)),
        ]
        for (value, expected) in cases {
            var machine = VaultStatusStateMachine()
            #expect(machine.refresh() == .fetchStatus)
            #expect(machine.state == .loading)
            #expect(machine.statusReceived(sampleVaultStatus(value)) == .none)
            #expect(machine.state == expected)
            #expect(!machine.isBusy)
        }
    }

    @Test("an ended member session shows sign in again, without a re-authentication; so does the background refresh")
    func signInRequired() {
        var machine = VaultStatusStateMachine()
        _ = machine.refresh()
        #expect(
            machine.failed(APIError(code: .signInRequired, description: "ended")) == .none, "no vault re-authentication"
        )
        #expect(machine.state == .signInRequired)
        #expect(!machine.isBusy)
        #expect(machine.retry() == .none)
        #expect(machine.refresh() == .fetchStatus, "after signing in the screen loads again")
        _ = machine.statusReceived(sampleVaultStatus(.active))
        #expect(machine.backgroundRefreshed(.synced(sampleSyncResult())) == .none)
        #expect(machine.state == .active(sampleVaultStatus(.active)))
        #expect(machine.backgroundRefreshed(.signInRequired(APIError(code: .signInRequired, description: ""))) == .none)
        #expect(machine.state == .signInRequired)
    }

    @Test("a vault in error shows its message; an unknown status is a non-retryable error")
    func errorAndUnknown() {
        var machine = VaultStatusStateMachine()
        _ = machine.refresh()
        _ = machine.statusReceived(sampleVaultStatus(.error, errorMessage: "Provisioning failed."))
        #expect(machine.state == .error(message: "Provisioning failed.", retryable: true))
        _ = machine.refresh()
        _ = machine.statusReceived(sampleVaultStatus("frozen"))
        guard case .error(let message, let retryable) = machine.state else {
            Issue.record("not an error")
            return
        }
        #expect(!retryable)
        #expect(message.contains("frozen"))
        #expect(machine.retry() == .none)
    }

    @Test(
        "failures: network, 429 and 5xx are retryable; 409 not_enrolled is notEnrolled; a bad answer is not retryable")
    func failureMapping() {
        let cases: [(APIError, VaultState)] = [
            (
                APIError(code: .networkError, description: "x"),
                .error(message: "Cannot reach the server. Check your connection.", retryable: true)
            ),
            (
                APIError(code: .internalError, status: 500, description: "x"),
                .error(message: "The server had a problem. Try again.", retryable: true)
            ),
            (
                APIError(code: .upstreamUnavailable, status: 503, description: "x"),
                .error(message: "The server had a problem. Try again.", retryable: true)
            ),
            (
                APIError(code: .rateLimited, status: 429, description: "x"),
                .error(message: "Too many requests. Try again later.", retryable: true)
            ),
            (APIError(code: .notEnrolled, status: 409, description: "x"), .notEnrolled),
            (
                APIError(code: .invalidResponse, status: 200, description: "x"),
                .error(message: "The server sent a vault status this app does not understand.", retryable: false)
            ),
            (
                APIError(code: .challengeUsed, status: 409, description: "nope"),
                .error(message: "The vault status could not be loaded: nope", retryable: false)
            ),
        ]
        for (error, expected) in cases {
            var machine = VaultStatusStateMachine()
            _ = machine.refresh()
            #expect(machine.failed(error) == .none)
            #expect(machine.state == expected)
        }
    }

    @Test("a 401 asks for one re-authentication and repeats the request")
    func reauthenticatesOnce() {
        var machine = VaultStatusStateMachine()
        _ = machine.refresh()
        #expect(machine.failed(APIError(code: .invalidToken, status: 401, description: "x")) == .reauthenticate)
        #expect(machine.state == .loading)
        #expect(machine.reauthenticated() == .fetchStatus)
        #expect(machine.statusReceived(sampleVaultStatus(.active)) == .none)
        #expect(machine.state == .active(sampleVaultStatus(.active)))
    }

    @Test("a second 401 after re-authenticating is an error")
    func secondUnauthorized() {
        var machine = VaultStatusStateMachine()
        _ = machine.sync()
        #expect(
            machine.failed(APIError(code: .reauthenticationRequired, status: nil, description: "x")) == .reauthenticate)
        #expect(machine.reauthenticated() == .sync)
        #expect(machine.failed(APIError(code: .invalidToken, status: 401, description: "x")) == .none)
        #expect(
            machine.state
                == .error(message: "Your vault session has expired. Unlock your vault again.", retryable: false))
        // A new user action gets a new re-authentication.
        #expect(machine.refresh() == .fetchStatus)
        #expect(machine.failed(APIError(code: .invalidToken, status: 401, description: "x")) == .reauthenticate)
    }

    @Test("a failed re-authentication ends in an error")
    func reauthenticationFails() {
        var machine = VaultStatusStateMachine()
        _ = machine.refresh()
        _ = machine.failed(APIError(code: .invalidToken, status: 401, description: "x"))
        #expect(machine.reauthenticationFailed(APIError(code: .reauthenticationRequired, description: "x")) == .none)
        #expect(machine.state == .error(message: "Unlock your vault to see its status.", retryable: false))

        var offline = VaultStatusStateMachine()
        _ = offline.refresh()
        _ = offline.failed(APIError(code: .invalidToken, status: 401, description: "x"))
        _ = offline.reauthenticationFailed(APIError(code: .networkError, description: "x"))
        #expect(offline.state == .error(message: "Cannot reach the server. Check your connection.", retryable: true))
    }

    @Test("sync: loading, then a status read; retry repeats the failed action; events out of turn are ignored")
    func syncAndRetry() {
        var machine = VaultStatusStateMachine()
        #expect(machine.sync() == .sync)
        #expect(machine.refresh() == .none)  // busy
        #expect(machine.statusReceived(sampleVaultStatus(.active)) == .none)  // not expected yet
        #expect(machine.state == .loading)
        #expect(machine.syncCompleted(sampleSyncResult()) == .fetchStatus)
        #expect(machine.failed(APIError(code: .networkError, description: "x")) == .none)
        #expect(machine.state == .error(message: "Cannot reach the server. Check your connection.", retryable: true))
        // The last user action was a sync: retry syncs again.
        #expect(machine.retry() == .sync)
        #expect(machine.syncCompleted(sampleSyncResult()) == .fetchStatus)
        #expect(machine.statusReceived(sampleVaultStatus(.enrolled)) == .none)
        #expect(machine.state == .enrolled(sampleVaultStatus(.enrolled)))
        #expect(machine.retry() == .none)
        #expect(machine.reauthenticated() == .none)
        #expect(machine.syncCompleted(sampleSyncResult()) == .none)
    }
}
