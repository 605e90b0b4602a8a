// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
import VettIDClient
import VettIDCore
import VettIDMessaging

@testable import VettIDNats
@testable import VettIDViewModels

func setupCredentials() -> NatsCredentials {
    let namespace = try! VaultNamespace(userGUID: "user-1")
    return NatsCredentials(
        tokenID: "tok-1", jwt: "jwt", seed: "SUSEED", creds: "creds", endpoint: "tls://nats.example.com:4222",
        expiresAt: Date().addingTimeInterval(86_400), permissions: NatsPermissionSet.forClient(.app, in: namespace),
        namespace: namespace)
}

let setupStatus = NatsStatus(hasAccount: true, account: nil, endpoint: "tls://nats.example.com:4222", activeTokens: [])

@Suite("NATS setup state machine")
struct NatsSetupStateMachineTests {
    @Test("account → token → connect → status → connected")
    func happyPath() {
        var machine = NatsSetupStateMachine()
        #expect(machine.state == .initial)
        #expect(machine.start() == .createAccount)
        #expect(machine.state == .creatingAccount)
        #expect(machine.start() == .none, "busy")
        #expect(machine.accountCreated() == .generateToken)
        #expect(machine.state == .generatingToken)
        let credentials = setupCredentials()
        #expect(machine.tokenIssued(credentials) == .connect(credentials))
        #expect(machine.state == .connecting)
        #expect(machine.connected() == .fetchStatus)
        #expect(machine.statusReceived(setupStatus) == .none)
        #expect(machine.state == .connected(setupStatus))
    }

    @Test("409 account_exists while creating the account proceeds to the token")
    func accountExists() {
        var machine = NatsSetupStateMachine()
        _ = machine.start()
        #expect(machine.failed(APIError(code: .accountExists, status: 409, description: "exists")) == .generateToken)
        #expect(machine.state == .generatingToken)
    }

    @Test("failures map to messages; retry starts over")
    func failures() {
        var machine = NatsSetupStateMachine()
        _ = machine.start()
        _ = machine.accountCreated()
        #expect(machine.failed(APIError(code: .natsNotConfigured, status: 503, description: "none")) == .none)
        #expect(machine.state == .error(message: "Messaging is not available on this server."))
        #expect(machine.retry() == .createAccount)
        _ = machine.accountCreated()
        _ = machine.tokenIssued(setupCredentials())
        #expect(machine.connectionFailed("refused") == .none)
        #expect(machine.state == .error(message: "Cannot connect to messaging: refused"))
        #expect(machine.retry() == .createAccount)
        #expect(machine.failed(APIError(code: .reauthenticationRequired, description: "")) == .none)
        #expect(machine.state == .error(message: "Your vault session has expired. Unlock your vault again."))
        #expect(machine.accountCreated() == .none, "late results are ignored")
    }

    @Test("an ended member session shows sign in again, from a step or from the background refresh; start works after")
    func signInRequired() {
        var machine = NatsSetupStateMachine()
        _ = machine.start()
        _ = machine.accountCreated()
        #expect(machine.failed(APIError(code: .signInRequired, description: "ended")) == .none)
        #expect(machine.state == .signInRequired)
        #expect(machine.retry() == .none, "retrying cannot help: the member signs in first")
        #expect(machine.start() == .createAccount, "after signing in the setup runs again")
        _ = machine.accountCreated()
        _ = machine.tokenIssued(setupCredentials())
        _ = machine.connected()
        _ = machine.statusReceived(setupStatus)
        #expect(machine.backgroundRefreshed(.refreshed(setupCredentials())) == .none)
        #expect(machine.state == .connected(setupStatus), "a successful refresh changes nothing on screen")
        #expect(machine.backgroundRefreshed(.signInRequired) == .none)
        #expect(machine.state == .signInRequired)
    }
}

@Suite("NATS setup view model")
@MainActor
struct NatsSetupViewModelTests {
    @Test("runs the steps with an existing account and ends connected")
    func existingAccount() async {
        var steps: [String] = []
        let model = NatsSetupViewModel(
            actions: .init(
                createAccount: {
                    steps.append("account")
                    throw APIError(code: .accountExists, status: 409, description: "exists")
                },
                issueToken: {
                    steps.append("token")
                    return setupCredentials()
                },
                connect: { credentials in
                    steps.append("connect \(credentials.tokenID)")
                    return .connected
                },
                fetchStatus: {
                    steps.append("status")
                    return setupStatus
                }
            ))
        await model.start()
        #expect(steps == ["account", "token", "connect tok-1", "status"])
        #expect(model.state == .connected(setupStatus))
    }

    @Test("a connection error is shown; retry runs again")
    func connectionError() async {
        var attempts = 0
        let model = NatsSetupViewModel(
            actions: .init(
                createAccount: {},
                issueToken: { setupCredentials() },
                connect: { _ in
                    attempts += 1
                    return attempts == 1 ? .error("Cannot reach the messaging server.") : .connected
                },
                fetchStatus: { setupStatus }
            ))
        await model.start()
        #expect(model.state == .error(message: "Cannot connect to messaging: Cannot reach the messaging server."))
        await model.retry()
        #expect(model.state == .connected(setupStatus))
    }
}
