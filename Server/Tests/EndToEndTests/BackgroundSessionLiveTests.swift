// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Logging
import NIOConcurrencyHelpers
import SQLKit
import Testing
import VettIDAPI
import VettIDClient
import VettIDCore
import VettIDServer
import VettIDTestSupport

/// Background work as a phone runs it: ``VaultRefreshTask`` and ``NatsTokenRefreshTask`` on a device whose member
/// signed in once (DPoP-bound to the device key), hours later, with no password and no user, against the real
/// server on the same manual clock; and how they stop once the member session is over.
@Suite(.timeLimit(.minutes(3)))
struct BackgroundSessionLiveTests {
    static let developmentToken = "background-session-development-token-0123"

    /// A phone: one store and one device key for the member session and the vault.
    struct Phone {
        let member: AuthManager
        let vault: VaultService
        let store: InMemorySecureStore
        let keyStore: SoftwareDeviceKeyStore
    }

    @MainActor
    static func phone(_ server: LiveServer, clock: OffsetClock, email: String) async throws -> Phone {
        let store = InMemorySecureStore()
        let keyStore = SoftwareDeviceKeyStore(store: store)
        let member = AuthManager(
            configuration: try .init(
                baseURL: server.baseURL, store: store, binding: .deviceKey(keyStore), logger: VaultLive.logger,
                clock: clock))
        try await member.register(email: email, password: VaultLive.memberPassword)
        let vault = VaultService(
            configuration: try VaultServiceConfiguration(
                baseURL: server.baseURL, deviceType: .cli, deviceID: "phone", logger: VaultLive.logger,
                clock: clock),
            deviceKeyStore: keyStore,
            attester: DevelopmentTokenAttester(token: developmentToken),
            store: store,
            memberSession: member.apiClient)
        _ = try await vault.enroll(invitation: try await VaultLive.invite(member), password: VaultLive.vaultPassword)
        return Phone(member: member, vault: vault, store: store, keyStore: keyStore)
    }

    /// Both refresh tasks of `phone`, started on one scheduler the test fires by hand.
    static func startedTasks(_ phone: Phone, clock: OffsetClock) async throws
        -> (ManualScheduler, VaultRefreshTask, NatsTokenRefreshTask)
    {
        let scheduler = ManualScheduler()
        let vaultRefresh = VaultRefreshTask(service: phone.vault, scheduler: scheduler)
        let natsRefresh = NatsTokenRefreshTask(
            provider: phone.vault, store: NatsCredentialStore(store: phone.store), scheduler: scheduler,
            clock: clock)
        try await vaultRefresh.start()
        try await natsRefresh.start()
        return (scheduler, vaultRefresh, natsRefresh)
    }

    static func configure(_ configuration: inout ServerConfiguration) {
        configuration.gate.developmentTokens = [developmentToken]
        // Tokens are signed locally; nothing needs to listen there for issuing them.
        configuration.nats.url = "nats://127.0.0.1:9"
        configuration.nats.publicURL = "nats://127.0.0.1:9"
        // Shorter than the 6 h between runs, so that every run needs a new token.
        configuration.nats.appTokenLifetime = .seconds(4 * 3600)
    }

    @Test @MainActor func theRefreshTasksSucceedHoursLaterWithNoPasswordAndNoUser() async throws {
        let clock = OffsetClock()
        try await LiveServer.withServer(clock: clock, configure: Self.configure) { server in
            let phone = try await Self.phone(server, clock: clock, email: "background@example.com")
            let signedInAs = try #require(await phone.member.apiClient.session.current)
            #expect(signedInAs.authorizationScheme == "DPoP", "the member session is bound to the device key")
            _ = try await phone.vault.createNatsAccount()
            let (scheduler, vaultRefresh, natsRefresh) = try await Self.startedTasks(phone, clock: clock)
            var vaultOutcomes = vaultRefresh.outcomes.makeAsyncIterator()
            var natsOutcomes = natsRefresh.outcomes.makeAsyncIterator()
            var tokens: Set<String> = []

            // The app is suspended; the system runs the tasks at +6 h and at +24 h (access tokens live 15 min).
            for hours in [6, 24] {
                clock.advance(to: .seconds(hours * 3600))
                #expect(await scheduler.fire(VaultRefreshTask.defaultIdentifier) == true)
                guard case .synced(let synced)? = await vaultOutcomes.next() else {
                    Issue.record("the vault refresh at +\(hours) h did not sync")
                    return
                }
                #expect(synced.transactionKeysRemaining > 0)
                #expect(await scheduler.fire(NatsTokenRefreshTask.defaultIdentifier) == true)
                guard case .refreshed(let credentials)? = await natsOutcomes.next() else {
                    Issue.record("the NATS refresh at +\(hours) h issued no token")
                    return
                }
                #expect(credentials.expiresAt > clock.now())
                tokens.insert(credentials.tokenID)
                #expect(scheduler.isScheduled(VaultRefreshTask.defaultIdentifier))
                #expect(scheduler.isScheduled(NatsTokenRefreshTask.defaultIdentifier))
            }
            #expect(tokens.count == 2)
            // The rotating refresh token carried the session: a new access token, still bound to the device key.
            let now = try #require(await phone.member.apiClient.session.current)
            #expect(now.accessToken != signedInAs.accessToken)
            #expect(now.refreshToken != signedInAs.refreshToken)
            #expect(now.authorizationScheme == "DPoP")
            // Nothing asked for the vault password: there never was a vault session.
            #expect(await phone.vault.sessionStore.current() == nil)
        }
    }

    enum SessionEnd: String, CaseIterable, Sendable {
        case logout, revokedOnTheServer, refreshTokenExpired
    }

    @Test(arguments: SessionEnd.allCases) @MainActor
    func onceTheMemberSessionIsOverTheTasksStopWithSignInRequired(_ end: SessionEnd) async throws {
        let clock = OffsetClock()
        try await LiveServer.withServer(clock: clock, configure: Self.configure) { server in
            let phone = try await Self.phone(server, clock: clock, email: "ended-\(end.rawValue)@example.com")
            _ = try await phone.vault.createNatsAccount()
            switch end {
            case .logout:
                await phone.member.logout()
            case .revokedOnTheServer:
                // What an operator, or the member from another device, does: the session row is revoked.
                try await server.components.store.withDatabase { db in
                    try await db.raw("UPDATE sessions SET revoked_at = 1, revoked_reason = 'test'").run()
                }
            case .refreshTokenExpired:
                clock.advance(to: .seconds(15 * 86_400))  // refresh tokens live 14 days from their last use
            }
            clock.advance(by: .seconds(6 * 3600))
            let (scheduler, vaultRefresh, natsRefresh) = try await Self.startedTasks(phone, clock: clock)

            #expect(await scheduler.fire(VaultRefreshTask.defaultIdentifier) == false)
            var vaultOutcomes = vaultRefresh.outcomes.makeAsyncIterator()
            guard case .signInRequired(let error)? = await vaultOutcomes.next() else {
                Issue.record("the vault refresh did not report sign_in_required")
                return
            }
            #expect(error.code == .signInRequired)
            #expect(await vaultRefresh.isStarted == false, "the task stopped")
            #expect(scheduler.isScheduled(VaultRefreshTask.defaultIdentifier) == false)

            #expect(await scheduler.fire(NatsTokenRefreshTask.defaultIdentifier) == false)
            var natsOutcomes = natsRefresh.outcomes.makeAsyncIterator()
            guard case .signInRequired? = await natsOutcomes.next() else {
                Issue.record("the NATS refresh did not report sign_in_required")
                return
            }
            #expect(await natsRefresh.isStarted == false)
            #expect(scheduler.isScheduled(NatsTokenRefreshTask.defaultIdentifier) == false)
        }
    }
}

/// A scheduler the test fires by hand, as the system fires a background task.
final class ManualScheduler: BackgroundScheduler {
    private struct State {
        var handlers: [String: BackgroundTaskHandler] = [:]
        var scheduled: Set<String> = []
    }
    private let state = NIOLockedValueBox(State())

    func register(identifier: String, handler: @escaping BackgroundTaskHandler) {
        state.withLockedValue { $0.handlers[identifier] = handler }
    }

    func schedule(identifier: String, interval: Duration) {
        _ = state.withLockedValue { $0.scheduled.insert(identifier) }
    }

    func cancel(identifier: String) {
        _ = state.withLockedValue { $0.scheduled.remove(identifier) }
    }

    /// Runs the registered work of `identifier` and returns what it reported (`nil`: nothing registered).
    func fire(_ identifier: String) async -> Bool? {
        let handler = state.withLockedValue { state -> BackgroundTaskHandler? in
            state.scheduled.remove(identifier)
            return state.handlers[identifier]
        }
        guard let handler else { return nil }
        return await handler()
    }

    /// Whether a run of `identifier` is pending.
    func isScheduled(_ identifier: String) -> Bool {
        state.withLockedValue { $0.scheduled.contains(identifier) }
    }
}
