// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import NATSClient
import NIOCore
import Testing
import VettIDAPI
import VettIDClient
import VettIDCore
import VettIDCrypto
import VettIDMessaging
import VettIDNats
import VettIDServer
import VettIDTestSupport

/// The SDK's NATS layer as an app uses it, against the real server issuing the tokens and a real nats-server in
/// operator mode: a device enrolled and authenticated with ``VaultService`` creates its NATS account and a
/// ``NatsConnectionManager`` (provider: the same ``VaultService``) connects over TLS, talks to the backend's vault
/// worker, swaps to fresh server-issued tokens before they expire without losing a message or a request, replaces
/// an expired or revoked token by re-authenticating (also at relaunch), rides out a nats-server restart, and reports
/// a missing vault session, NATS account or NATS server as an error state.
@Suite(.enabled(if: NATSLive.isAvailable, "nats-server is not installed"), .timeLimit(.minutes(3)))
struct NATSSDKLiveTests {
    static let developmentToken = "nats-sdk-live-development-token-0123456789"
    static let deviceID = "sdk-e2e-phone"

    // MARK: 1. Setup like an app

    @Test @MainActor func anAppConnectsOverTLSWithAServerIssuedTokenAndTalksToTheBackendsWorker() async throws {
        try await NATSLive.with(tls: true, configure: Self.configure) { live in
            let log = LogCapture()
            let device = try await Self.device(live, email: "nats-sdk-app@example.com", log: log)
            let account = try await device.vault.createNatsAccount()
            #expect(account.userGUID == device.userGUID)
            #expect(account.ownerSpace == "OwnerSpace.\(device.userGUID)")
            #expect(account.messageSpace == "MessageSpace.\(device.userGUID)")
            #expect(account.status == "active")
            #expect(account.endpoint == live.nats.url)
            // Idempotent, as the product documents' setup flow expects: the same account again.
            let again = try await device.vault.createNatsAccount()
            #expect(again == account)

            let manager = Self.manager(live, device, log: log)
            #expect(manager.state == .disconnected)
            await manager.connect()
            #expect(manager.state == .connected)
            #expect(manager.connection.isConnected)
            let tokenID = try #require(manager.tokenID)
            let namespace = try #require(manager.namespace)
            #expect(namespace.userGUID == device.userGUID)
            #expect(manager.swapCount == 0)
            #expect(manager.reauthenticationCount == 0)

            // The token is kept in the device's SecureStore: read back by a new store over the same items.
            #expect(await device.store.keys.contains("vettid.nats.credentials"))
            let stored = try #require(await NatsCredentialStore(store: device.store).load())
            #expect(stored.tokenID == tokenID)
            #expect(stored.clientType == .app)
            #expect(stored.endpoint == live.nats.url)
            #expect(stored.endpoint.hasPrefix("tls://"))
            #expect(stored.namespace == namespace)
            #expect(stored.mailbox != nil, "the server keeps mailboxes: the device's token names its own")
            // The token answer lists publish and subscribe (its `resp` is not on the wire).
            let expected = NatsPermissionSet.app(in: namespace, mailbox: stored.mailbox)
            #expect(
                stored.permissions.publish == expected.publish && stored.permissions.subscribe == expected.subscribe)
            #expect(stored.expiresAt == manager.expiresAt)
            let lifetime = stored.remainingLifetime(at: Date())
            #expect(lifetime > 23.9 * 3600 && lifetime <= 24 * 3600, "the server's default app token lifetime")
            #expect(stored.seed.hasPrefix("SU"))
            #expect(stored.creds.contains(stored.jwt) && stored.creds.contains(stored.seed))
            // The server lists it as the device's only active token.
            let natsStatus = try await device.vault.getNatsStatus()
            #expect(natsStatus.hasAccount)
            #expect(natsStatus.endpoint == live.nats.url)
            #expect(natsStatus.activeTokens.map(\.tokenID) == [tokenID])
            #expect(natsStatus.activeTokens.first?.deviceID == Self.deviceID)
            #expect(natsStatus.activeTokens.first?.clientType == .app)

            // The backend's worker answers with the member's real vault state, as the HTTP status reports it.
            for worker in live.server.components.vaultWorkers { try await worker.waitUntilReady() }
            let vault = try manager.ownerSpace()
            let status = try await vault.status()
            let overHTTP = try await device.vault.getVaultStatus()
            #expect(status.userGUID == device.userGUID)
            #expect(status.vaultStatus == "enrolled")
            #expect(status.vaultStatus == overHTTP.status.rawValue)
            #expect(status.transactionKeysRemaining != nil)
            #expect(status.transactionKeysRemaining == overHTTP.transactionKeysRemaining)
            #expect(status.handlers.contains("echo"))
            #expect(!status.workerID.isEmpty)

            let payload: JSONValue = .object([("greeting", .string("hello vault")), ("n", .number("42"))])
            #expect(try await vault.executeHandler("echo", payload: payload) == payload)
            let unknown = await Self.natsError { () async throws(NatsConnectionError) in
                try await vault.executeHandler("launch.rockets")
            }
            #expect(unknown?.code == .vaultError)
            #expect(unknown?.vaultError?.code == .unknownHandler)
            let types = try await vault.getEventTypes()
            #expect(types.contains { $0.handlerID == "echo" })

            // An app relaunch: a new manager over the same store connects with the stored token; none is issued.
            await manager.disconnect()
            #expect(manager.state == .disconnected)
            #expect(!manager.connection.isConnected)
            let relaunched = Self.manager(live, device, log: log)
            await relaunched.connect()
            #expect(relaunched.state == .connected)
            #expect(relaunched.tokenID == tokenID)
            #expect(
                try await relaunched.ownerSpace().executeHandler("echo", payload: .string("again")) == .string("again"))
            #expect(try await device.vault.getNatsStatus().activeTokens.map(\.tokenID) == [tokenID])
            await relaunched.disconnect()

            // The logs name the token but never its JWT or seed (the SDK's, NATSClient's and VaultService's).
            let lines = log.lines
            #expect(lines.contains { $0.contains(tokenID) }, "the capture saw the NATS layer's logs")
            #expect(lines.contains { $0.contains("NATS: state connected") })
            Self.expectNoSecrets(of: [stored], in: lines)
        }
    }

    // MARK: 1b. The sealed session against the backend's worker

    @Test @MainActor func theSDKsSealedSessionTalksToTheBackendsWorkerAndATapSeesNoPlaintext() async throws {
        try await NATSLive.with(tls: true, configure: Self.configure) { live in
            let log = LogCapture()
            let device = try await Self.messagingDevice(live, email: "nats-sdk-sealed@example.com", log: log)
            // The keys pinned at enrollment (finalize's vault_session_keys) are the server's.
            let pinned = try await device.vault.pinnedVaultKeys()
            #expect(pinned.currentKID == "vault-session-1")
            let channel = VaultSessionChannel(
                dependencies: .init(vault: device.vault, deviceKeyStore: SoftwareDeviceKeyStore(store: device.store)))
            let manager = NatsConnectionManager(
                configuration: .init(
                    tls: NATSTLSConfiguration(rootCertificatesPath: live.nats.caFile), logger: log.logger(label: "nats")
                ),
                provider: device.vault, store: NatsCredentialStore(store: device.store), sealedSession: channel)
            await manager.connect()
            #expect(manager.state == .connected)

            let tap = try await NATSTap.start(live)

            let secret = "sealed all the way 0451"
            let vault = try manager.ownerSpace()
            let payload: JSONValue = .object([("secret", .string(secret))])
            #expect(try await vault.executeHandler("echo", payload: payload) == payload)
            #expect(try await vault.executeHandler("echo", payload: .string("twice")) == .string("twice"))
            let unknown = await Self.natsError { () async throws(NatsConnectionError) in
                try await vault.executeHandler("launch.rockets")
            }
            #expect(unknown?.code == .vaultError)
            #expect(unknown?.vaultError?.code == .unknownHandler)
            #expect(channel.handshakeCount == 1, "one handshake, then every request on the session")
            let served = live.server.components.vaultWorkers.reduce(UInt64(0)) { $0 + $1.statistics.sealedRequests }
            #expect(served == 3, "the backend's workers answered the three requests sealed")

            let bytes = await tap.stop()
            #expect(bytes.count > 1_500, "the tap heard the handshake and the envelopes")
            for needle in [secret, "echo", "launch.rockets", "handler"] {
                #expect(bytes.firstRange(of: Array(needle.utf8)) == nil, "'\(needle)' travels in the clear")
            }
            await manager.disconnect()
        }
    }

    // MARK: 2. Refresh before expiry

    @Test @MainActor func serverIssuedTokensAreSwappedBeforeExpiryWithoutLosingAMessageOrARequest() async throws {
        try await NATSLive.with(
            tls: true,
            configure: Self.configureTenSecondTokens
        ) { live in
            let log = LogCapture()
            let device = try await Self.messagingDevice(live, email: "nats-sdk-refresh@example.com", log: log)
            // A 10 s token, refreshed when less than 7 s remain: a swap about every 3 s.
            let manager = Self.manager(
                live, device, log: log, timing: .init(refreshWindow: 7, minimumRefreshDelay: 1, retryInterval: 2))
            await manager.connect()
            #expect(manager.state == .connected)
            let first = try #require(await NatsCredentialStore(store: device.store).load())
            #expect(first.remainingLifetime(at: Date()) <= 10)
            let namespace = try #require(manager.namespace)

            let states = StateRecorder()
            let stateTask = Task { for await state in manager.stateUpdates() { states.values.append(state) } }
            let subject = "\(namespace.ownerSpace).forApp.stream"
            let subscription = try manager.connection.subscribe(to: subject)
            try await manager.connection.flush()
            let received = Received()
            let receiving = Task {
                for await message in subscription {
                    if let number = Int(message.payloadString) { received.numbers.append(number) }
                }
            }

            // The member's vault (a vault token from the same device) publishes 1…400 every 20 ms, each with a
            // Nats-Msg-Id (the SDK drops the second copy a swap's overlap delivers by that id).
            let (publisher, vaultCredentials) = try await Self.vaultClient(live, device)
            #expect(vaultCredentials.clientType == .vault)
            let total = 400
            let publishing = Task.detached {
                let clock = ContinuousClock()
                let start = clock.now
                for number in 1...total {
                    try publisher.publish(
                        "\(number)", to: subject,
                        headers: NATSHeaders([(NatsMessageDeduplicator.messageIDHeader, "stream-\(number)")]))
                    try await clock.sleep(until: start + .milliseconds(20 * number))
                }
                try await publisher.flush()
            }

            // Meanwhile the app keeps asking the worker: every request is answered, across the swaps.
            let vault = try manager.ownerSpace()
            var requests = 0
            var failures: [String] = []
            var tokenIDs: [String] = []
            var swapsSampled = 0
            while !received.numbers.contains(total) {
                requests += 1
                do {
                    let answer = try await vault.executeHandler("echo", payload: .number("\(requests)"))
                    if answer != .number("\(requests)") { failures.append("request \(requests): answered \(answer)") }
                } catch {
                    failures.append("request \(requests): \(error)")
                }
                if let tokenID = manager.tokenID, tokenIDs.last != tokenID { tokenIDs.append(tokenID) }
                swapsSampled = manager.swapCount
                try await Task.sleep(for: .milliseconds(50))
                if requests > 600 { break }
            }
            try await publishing.value
            // Late copies (if any) would arrive within moments.
            try await Task.sleep(for: .milliseconds(500))
            subscription.unsubscribe()
            await receiving.value

            let numbers = received.numbers
            #expect(numbers.count == total, "every number exactly once (got \(numbers.count))")
            #expect(Set(numbers) == Set(1...total), "missing: \(Set(1...total).subtracting(numbers).sorted())")
            #expect(subscription.droppedMessages == 0)
            #expect(failures.isEmpty, "\(failures)")
            #expect(requests >= 50, "\(requests) requests during the stream")
            #expect(manager.swapCount >= 1, "swaps: \(manager.swapCount)")
            #expect(tokenIDs.count == swapsSampled + 1, "every swap moved to a new token: \(tokenIDs)")
            #expect(tokenIDs.first == first.tokenID)
            let swapLines = log.lines.filter { $0.contains("NATS: swapped to a fresh token") }
            #expect(swapLines.count == manager.swapCount, "\(swapLines)")
            #expect(!log.lines.contains { $0.contains("swap failed") }, "no swap failed")
            #expect(manager.reauthenticationCount == 0, "no token expired or was refused")
            #expect(manager.state == .connected)
            #expect(
                states.values.allSatisfy { $0 == .connected },
                "the swaps never showed as a lost connection: \(states.values)")

            // Past the first token's expiry the app is still connected on a later, stored token.
            let untilExpiry = first.expiresAt.timeIntervalSinceNow + 1
            if untilExpiry > 0 { try await Task.sleep(for: .milliseconds(Int64(untilExpiry * 1000))) }
            #expect(manager.state == .connected)
            #expect(manager.reauthenticationCount == 0)
            #expect(try await vault.status().userGUID == device.userGUID)
            let current = try #require(await NatsCredentialStore(store: device.store).load())
            #expect(current.tokenID == manager.tokenID)
            #expect(current.tokenID != first.tokenID)
            #expect(!current.isExpired)
            let active = try await device.vault.getNatsStatus().activeTokens.map(\.tokenID)
            #expect(!active.contains(first.tokenID), "the first token has expired")
            #expect(active.contains(current.tokenID))

            stateTask.cancel()
            await manager.disconnect()
            await publisher.close()
            Self.expectNoSecrets(of: [first, current, vaultCredentials], in: log.lines)
        }
    }

    @Test @MainActor func aTokenThatExpiresUnrefreshedIsReplacedByReauthentication() async throws {
        try await NATSLive.with(
            tls: true,
            configure: Self.configureTenSecondTokens
        ) { live in
            let log = LogCapture()
            let device = try await Self.messagingDevice(live, email: "nats-sdk-expiry@example.com", log: log)
            // No refresh before the 10 s token expires: nats-server cuts the connection at its expiry.
            let manager = Self.manager(
                live, device, log: log, timing: .init(refreshWindow: 0, minimumRefreshDelay: 600, retryInterval: 600))
            await manager.connect()
            #expect(manager.state == .connected)
            let expiring = try #require(await NatsCredentialStore(store: device.store).load())
            let vault = try manager.ownerSpace()
            let responses = try vault.subscribeToVaultResponses()
            try await manager.connection.flush()

            let renewed = await eventually(timeout: .seconds(25), poll: .milliseconds(50)) {
                manager.reauthenticationCount > 0 && manager.state == .connected
            }
            #expect(renewed, "the manager did not reauthenticate and reconnect within 25 s: \(manager.state)")
            #expect(Date() >= expiring.expiresAt, "nothing happened before the token expired")
            #expect(manager.state == .connected)
            #expect(manager.reauthenticationCount == 1)
            #expect(manager.swapCount == 0)
            let fresh = try #require(manager.tokenID)
            #expect(fresh != expiring.tokenID)
            #expect(await NatsCredentialStore(store: device.store).load()?.tokenID == fresh)
            let cutOff = log.lines.filter { $0.contains("NATS: disconnected") && $0.contains(expiring.tokenID) }
            #expect(cutOff.contains { $0.contains("authentication_expired") }, "\(cutOff)")

            // The worker answers and the subscription made on the expired token's connection still delivers.
            #expect(try await vault.executeHandler("echo", payload: .string("renewed")) == .string("renewed"))
            let (vaultClient, vaultCredentials) = try await Self.vaultClient(live, device)
            let pushed = VaultResponse.eventTypes(requestID: "after-expiry", types: [], timestamp: 1)
            try vaultClient.publish(pushed.encoded(), to: expiring.namespace.response(to: "eventTypes"))
            try await vaultClient.flush()
            #expect(await Self.next(responses)?.requestID == "after-expiry")

            responses.unsubscribe()
            await vaultClient.close()
            await manager.disconnect()
            Self.expectNoSecrets(of: [expiring, vaultCredentials], in: log.lines)
        }
    }

    // MARK: nats-server restart

    @Test @MainActor func aNatsServerRestartShowsAsConnectingAndTheSameTokenCarriesOn() async throws {
        try await NATSLive.with(tls: true, configure: Self.configure) { live in
            let log = LogCapture()
            let device = try await Self.messagingDevice(live, email: "nats-sdk-restart@example.com", log: log)
            let manager = Self.manager(
                live, device, log: log,
                reconnect: NATSReconnectPolicy(maxAttemptsPerServer: nil, wait: .milliseconds(200)))
            await manager.connect()
            let tokenID = try #require(manager.tokenID)
            let responses = try manager.ownerSpace().subscribeToVaultResponses()
            try await manager.connection.flush()
            let states = StateRecorder()
            let stateTask = Task { for await state in manager.stateUpdates() { states.values.append(state) } }

            let restarted = try await live.nats.restarted()
            defer { restarted.stop() }
            let reconnected = await eventually(timeout: .seconds(20), poll: .milliseconds(50)) {
                states.values.last == .connected
            }
            #expect(reconnected, "the manager did not report connected again within 20 s: \(states.values)")
            #expect(states.values == [.connecting, .connected], "\(states.values)")
            #expect(manager.tokenID == tokenID, "a restart needs no new token")
            #expect(manager.reauthenticationCount == 0)
            // The workers reconnect too; the app's requests are answered again and its subscription delivers.
            // As long as the 100 attempts of 1 s + 100 ms this replaced could take.
            var attempt = 0
            let answered = await eventually(timeout: .seconds(110), poll: .milliseconds(100)) {
                attempt += 1
                let answer = try? await manager.ownerSpace().executeHandler(
                    "echo", payload: .string("\(attempt)"), timeout: .seconds(1))
                return answer == .string("\(attempt)")
            }
            #expect(answered, "the worker did not answer within 110 s of the restart")
            let (vaultClient, vaultCredentials) = try await Self.vaultClient(live, device)
            let namespace = try #require(manager.namespace)
            try vaultClient.publish(
                VaultResponse.eventTypes(requestID: "after-restart", types: [], timestamp: 1).encoded(),
                to: namespace.response(to: "eventTypes"))
            try await vaultClient.flush()
            #expect(await Self.next(responses)?.requestID == "after-restart")

            stateTask.cancel()
            responses.unsubscribe()
            await vaultClient.close()
            await manager.disconnect()
            let stored = try #require(await NatsCredentialStore(store: device.store).load())
            #expect(stored.tokenID == tokenID)
            Self.expectNoSecrets(of: [stored, vaultCredentials], in: log.lines)
        }
    }

    // MARK: 3. Revocation

    @Test @MainActor func aRevokedTokenIsCutOffAndTheManagerReauthenticatesWithAFreshOne() async throws {
        try await NATSLive.with(tls: true, configure: Self.configure) { live in
            let log = LogCapture()
            let device = try await Self.messagingDevice(live, email: "nats-sdk-revoke@example.com", log: log)
            let manager = Self.manager(live, device, log: log)
            await manager.connect()
            #expect(manager.state == .connected)
            let revoked = try #require(await NatsCredentialStore(store: device.store).load())
            #expect(revoked.tokenID == manager.tokenID)
            let namespace = try #require(manager.namespace)
            let events = try manager.ownerSpace().subscribeToVaultResponses()
            try await manager.connection.flush()

            let states = StateRecorder()
            let stateTask = Task { for await state in manager.stateUpdates() { states.values.append(state) } }
            let revocation = try await device.vault.revokeNatsToken(id: try #require(manager.tokenID))
            #expect(revocation.tokenID == revoked.tokenID)
            #expect(revocation.status == "revoked")

            // nats-server cuts the connection off; the manager fetches a new token from the VaultService and connects.
            let replaced = await eventually(timeout: .seconds(20), poll: .milliseconds(50)) {
                manager.tokenID != revoked.tokenID && manager.state == .connected
            }
            #expect(replaced, "the manager did not reconnect with a fresh token within 20 s: \(manager.state)")
            #expect(manager.state == .connected)
            let fresh = try #require(manager.tokenID)
            #expect(fresh != revoked.tokenID)
            #expect(manager.reauthenticationCount == 1)
            #expect(manager.swapCount == 0)
            let cutOff = log.lines.filter { $0.contains("NATS: disconnected") && $0.contains(revoked.tokenID) }
            #expect(
                cutOff.contains { $0.contains("authentication_revoked") || $0.contains("authorization_violation") },
                "nats-server said why it cut the connection: \(cutOff)")
            let stored = try #require(await NatsCredentialStore(store: device.store).load())
            #expect(stored.tokenID == fresh, "the fresh token replaced the revoked one in the store")

            // It keeps working: requests to the worker, and the subscription made before the revocation.
            #expect(
                try await manager.ownerSpace().executeHandler("echo", payload: .string("after")) == .string("after"))
            let (vaultClient, vaultCredentials) = try await Self.vaultClient(live, device)
            let pushed = VaultResponse.eventTypes(requestID: "pushed-1", types: [], timestamp: 1)
            try vaultClient.publish(pushed.encoded(), to: namespace.response(to: "eventTypes"))
            try await vaultClient.flush()
            #expect(await Self.next(events)?.requestID == "pushed-1")

            // The revoked token's own credentials are refused by nats-server.
            let again = try NATSClient(
                configuration: NATSClient.Configuration(
                    servers: [revoked.endpoint], auth: .jwt(revoked.jwt, seed: revoked.seed), reconnect: .disabled,
                    tls: NATSTLSConfiguration(rootCertificatesPath: live.nats.caFile)))
            let refused = await #expect(throws: NATSError.self) { try await again.connect() }
            #expect(
                refused?.code == .authorizationViolation || refused?.code == .authenticationRevoked,
                "\(String(describing: refused))")
            await again.close()
            let active = try await device.vault.getNatsStatus().activeTokens.map(\.tokenID)
            #expect(!active.contains(revoked.tokenID))
            #expect(active.contains(fresh))

            #expect(states.values == [.connecting, .connected], "the loss showed as connecting, never as an error")
            stateTask.cancel()
            events.unsubscribe()
            await vaultClient.close()
            await manager.disconnect()
            Self.expectNoSecrets(of: [revoked, stored, vaultCredentials], in: log.lines)
        }
    }

    @Test @MainActor func aTokenRevokedWhileTheAppWasClosedIsReplacedAtRelaunch() async throws {
        try await NATSLive.with(tls: true, configure: Self.configure) { live in
            let log = LogCapture()
            let device = try await Self.messagingDevice(live, email: "nats-sdk-relaunch@example.com", log: log)
            let before = Self.manager(live, device, log: log)
            await before.connect()
            let revokedID = try #require(before.tokenID)
            await before.disconnect()
            _ = try await device.vault.revokeNatsToken(id: revokedID)

            // The stored token is unexpired, so the relaunched app tries it: nats-server refuses it and a new
            // one is fetched.
            let relaunched = Self.manager(live, device, log: log)
            await relaunched.connect()
            #expect(relaunched.state == .connected)
            let fresh = try #require(relaunched.tokenID)
            #expect(fresh != revokedID)
            #expect(relaunched.reauthenticationCount == 1)
            #expect(await NatsCredentialStore(store: device.store).load()?.tokenID == fresh)
            #expect(try await relaunched.ownerSpace().status().userGUID == device.userGUID)
            await relaunched.disconnect()
        }
    }

    @Test @MainActor func aRevokedTokenWithoutAVaultSessionToRenewItIsAnErrorState() async throws {
        try await NATSLive.with(tls: true, configure: Self.configure) { live in
            let log = LogCapture()
            let device = try await Self.device(live, email: "nats-sdk-stranded@example.com", log: log)
            _ = try await device.vault.createNatsAccount()
            let manager = Self.manager(live, device, log: log)
            await manager.connect()
            let revokedID = try #require(manager.tokenID)

            // The vault session is gone (no re-authentication hook), and the member revokes the token elsewhere.
            await device.vault.sessionStore.remove()
            let member = NATSMember(auth: device.member, userGUID: device.userGUID)
            #expect(try await member.revoke(revokedID).status == .revoked)
            let failed = await eventually(timeout: .seconds(20), poll: .milliseconds(50)) {
                Self.errorMessage(manager.state) != nil
            }
            #expect(failed, "the manager did not reach an error state within 20 s")
            let message = try #require(Self.errorMessage(manager.state), "\(manager.state)")
            #expect(message.hasPrefix("No NATS credentials: reauthentication_required"), "\(message)")
            #expect(manager.reauthenticationCount == 1)
            #expect(manager.tokenID == nil)
            #expect(!manager.connection.isConnected)
            let refused = await Self.natsError { () async throws(NatsConnectionError) in
                try await manager.ownerSpace().status()
            }
            #expect(refused?.code == .notConnected)

            // After the member authenticates again, connect() recovers.
            _ = try await device.vault.authenticate(password: VaultLive.vaultPassword)
            await manager.connect()
            #expect(manager.state == .connected)
            #expect(manager.tokenID != nil && manager.tokenID != revokedID)
            await manager.disconnect()
        }
    }

    // MARK: 4. Graceful errors

    @Test @MainActor func noVaultSessionOrNoNATSAccountIsAnErrorStateAndConnectRecoversOnceFixed() async throws {
        try await NATSLive.with(configure: Self.configure) { live in
            let log = LogCapture()
            // A device that never enrolled: no credential, no session.
            let stranger = try Self.vaultService(live.server.baseURL, store: InMemorySecureStore(), log: log)
            let lonely = NatsConnectionManager(
                configuration: .init(logger: log.logger(label: "nats")), provider: stranger,
                store: NatsCredentialStore(store: InMemorySecureStore()))
            await lonely.connect()
            let noCredential = try #require(Self.errorMessage(lonely.state), "\(lonely.state)")
            #expect(noCredential.hasPrefix("No NATS credentials: reauthentication_required"), "\(noCredential)")
            #expect(lonely.tokenID == nil)
            #expect(lonely.namespace == nil)
            #expect(throws: NatsConnectionError.self) { try lonely.ownerSpace() }

            // Enrolled but not yet authenticated: still no vault session.
            let member = try await VaultLive.member(baseURL: live.server.baseURL, email: "nats-sdk-errors@example.com")
            let store = InMemorySecureStore()
            let vault = try Self.vaultService(live.server.baseURL, store: store, log: log)
            _ = try await vault.enroll(
                invitation: try await VaultLive.invite(member), password: VaultLive.vaultPassword)
            let credentials = NatsCredentialStore(store: store)
            let manager = NatsConnectionManager(
                configuration: .init(logger: log.logger(label: "nats")), provider: vault, store: credentials)
            await manager.connect()
            let noSession = try #require(Self.errorMessage(manager.state), "\(manager.state)")
            #expect(noSession.hasPrefix("No NATS credentials: reauthentication_required"), "\(noSession)")

            // Authenticated, but the member's NATS account does not exist yet: the server's 404.
            _ = try await vault.authenticate(password: VaultLive.vaultPassword)
            await manager.connect()
            let noAccount = try #require(Self.errorMessage(manager.state), "\(manager.state)")
            #expect(noAccount.hasPrefix("No NATS credentials: not_found"), "\(noAccount)")
            #expect(manager.tokenID == nil)
            #expect(await credentials.load() == nil, "nothing was stored")

            // Once the account exists, connect() from the error state succeeds.
            _ = try await vault.createNatsAccount()
            await manager.connect()
            #expect(manager.state == .connected)
            #expect(manager.tokenID != nil)
            #expect(try await manager.ownerSpace().executeHandler("echo", payload: .bool(true)) == .bool(true))
            await manager.disconnect()
            #expect(manager.reauthenticationCount == 0)
        }
    }

    @Test @MainActor func aServerWithoutNATSIsAnErrorState() async throws {
        try await LiveServer.withServer(configure: Self.configure) { server in
            let log = LogCapture()
            let member = try await VaultLive.member(baseURL: server.baseURL, email: "nats-sdk-off@example.com")
            let store = InMemorySecureStore()
            let vault = try Self.vaultService(server.baseURL, store: store, log: log)
            _ = try await vault.enroll(
                invitation: try await VaultLive.invite(member), password: VaultLive.vaultPassword)
            _ = try await vault.authenticate(password: VaultLive.vaultPassword)
            _ = try await vault.createNatsAccount()
            let manager = NatsConnectionManager(
                configuration: .init(logger: log.logger(label: "nats")), provider: vault,
                store: NatsCredentialStore(store: store))
            await manager.connect()
            let message = try #require(Self.errorMessage(manager.state), "\(manager.state)")
            #expect(message.hasPrefix("No NATS credentials: nats_not_configured"), "\(message)")
        }
    }

    // MARK: Support

    /// A device of the app: the SDK's ``VaultService`` enrolled with the development token and authenticated.
    struct Device {
        let member: AuthManager
        let vault: VaultService
        let store: InMemorySecureStore
        let userGUID: String
    }

    static func configure(_ configuration: inout ServerConfiguration) {
        configuration.gate.developmentTokens = [developmentToken]
    }

    /// ``configure(_:)`` with app tokens valid 10 s.
    static func configureTenSecondTokens(_ configuration: inout ServerConfiguration) {
        configure(&configuration)
        configuration.nats.appTokenLifetime = .seconds(10)
    }

    static func vaultService(_ baseURL: URL, store: InMemorySecureStore, log: LogCapture) throws -> VaultService {
        VaultService(
            configuration: try VaultServiceConfiguration(
                baseURL: baseURL, deviceType: .cli, deviceID: deviceID, logger: log.logger(label: "vault")),
            deviceKeyStore: SoftwareDeviceKeyStore(store: store),
            attester: DevelopmentTokenAttester(token: developmentToken),
            store: store)
    }

    @MainActor
    static func device(_ live: NATSLive, email: String, log: LogCapture) async throws -> Device {
        let member = try await VaultLive.member(baseURL: live.server.baseURL, email: email)
        let store = InMemorySecureStore()
        let vault = try vaultService(live.server.baseURL, store: store, log: log)
        let enrolled = try await vault.enroll(
            invitation: try await VaultLive.invite(member), password: VaultLive.vaultPassword)
        _ = try await vault.authenticate(password: VaultLive.vaultPassword)
        return Device(member: member, vault: vault, store: store, userGUID: enrolled.package.userGUID)
    }

    /// ``device(_:email:log:)`` with NATS namespaces, once the backend's workers are ready.
    @MainActor
    static func messagingDevice(_ live: NATSLive, email: String, log: LogCapture) async throws -> Device {
        let device = try await device(live, email: email, log: log)
        _ = try await device.vault.createNatsAccount()
        for worker in live.server.components.vaultWorkers { try await worker.waitUntilReady() }
        return device
    }

    /// The manager as an app creates it: TLS roots of the local nats-server, the device's VaultService as provider.
    @MainActor
    static func manager(
        _ live: NATSLive, _ device: Device, log: LogCapture, timing: NatsConnectionManagerStateMachine.Timing = .init(),
        reconnect: NATSReconnectPolicy = NATSReconnectPolicy(maxAttemptsPerServer: nil)
    ) -> NatsConnectionManager {
        NatsConnectionManager(
            configuration: .init(
                timing: timing, tls: NATSTLSConfiguration(rootCertificatesPath: live.nats.caFile), reconnect: reconnect,
                logger: log.logger(label: "nats")),
            provider: device.vault,
            store: NatsCredentialStore(store: device.store))
    }

    /// A NATS client of the member's vault side, with a `vault` token the device has the server issue.
    static func vaultClient(_ live: NATSLive, _ device: Device) async throws -> (NATSClient, NatsCredentials) {
        let credentials = try await device.vault.createNatsToken(clientType: .vault)
        let client = try NATSClient(
            configuration: NATSClient.Configuration(
                servers: [credentials.endpoint], auth: .jwt(credentials.jwt, seed: credentials.seed),
                tls: NATSTLSConfiguration(rootCertificatesPath: live.nats.caFile)))
        try await client.connect()
        return (client, credentials)
    }

    /// The next response `responses` delivers, or `nil` after `timeout`.
    static func next(_ responses: VaultResponseSubscription, within timeout: Duration = .seconds(10)) async
        -> VaultResponse?
    {
        await withTaskGroup(of: VaultResponse?.self) { group in
            group.addTask {
                var iterator = responses.makeAsyncIterator()
                return await iterator.next()
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    static func errorMessage(_ state: NatsConnectionState) -> String? {
        if case .error(let message) = state { message } else { nil }
    }

    /// The ``NatsConnectionError`` `body` throws, or `nil` when it succeeds.
    @MainActor
    static func natsError<Value>(_ body: () async throws(NatsConnectionError) -> Value) async -> NatsConnectionError? {
        do {
            _ = try await body()
            return nil
        } catch {
            return error
        }
    }

    /// The ``APIError`` `body` throws, or `nil` when it succeeds.
    @MainActor
    static func apiError<Value>(_ body: () async throws(APIError) -> Value) async -> APIError? {
        do {
            _ = try await body()
            return nil
        } catch {
            return error
        }
    }

    /// No log line contains a JWT or seed of `credentials`.
    static func expectNoSecrets(of credentials: [NatsCredentials], in lines: [String]) {
        for credential in credentials {
            #expect(!lines.contains { $0.contains(credential.seed) }, "the seed of \(credential.tokenID) was logged")
            #expect(!lines.contains { $0.contains(credential.jwt) }, "the JWT of \(credential.tokenID) was logged")
            // Nor any recognisable part of the seed (a truncated or reformatted copy).
            #expect(!lines.contains { $0.contains(String(credential.seed.dropFirst(2).prefix(24))) })
        }
    }

    /// What a task saw, appended on the main actor.
    @MainActor
    final class Received {
        var numbers: [Int] = []
    }

    /// The state changes a manager reported.
    @MainActor
    final class StateRecorder {
        var values: [NatsConnectionState] = []
    }
}
