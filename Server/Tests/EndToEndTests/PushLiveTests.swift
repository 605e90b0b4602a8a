// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import NATSClient
import SQLKit
import Testing
import VettIDAPI
import VettIDClient
import VettIDCore
import VettIDLocalAPNS
import VettIDMessaging
import VettIDNats
import VettIDTestSupport

@testable import VettIDServer

/// Wake pushes end to end (docs/protocol.md 7.6): the SDK registers the device's token, the relay stores a notice
/// and asks whether the app is connected, and the provider pushes to a local APNs over HTTP/2 + TLS.
@Suite(.enabled(if: NATSLive.isAvailable, "nats-server is not installed"), .timeLimit(.minutes(3)))
struct PushLiveTests {
    static let bundleID = "dev.vettid.example"

    /// A live server with NATS, mailboxes and a local APNs it pushes to.
    nonisolated(nonsending) static func with(_ body: (NATSLive, LocalAPNSServer) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vettid-push-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let pairing = try await LocalAPNSServer.paired(bundleIDs: [bundleID], directory: directory)
        do {
            try await NATSLive.with(configure: {
                NATSSDKLiveTests.configure(&$0)
                $0.apns = pairing.configuration
            }) { live in
                try await body(live, pairing.server)
            }
        } catch {
            await pairing.server.stop()
            throw error
        }
        await pairing.server.stop()
    }

    static func randomToken() throws -> PushDeviceToken {
        try PushDeviceToken((0..<32).map { _ in UInt8.random(in: 0...255) })
    }

    /// The member's stored push tokens: (device key thumbprint, token).
    static func tokens(_ live: NATSLive, userGUID: String) async throws -> [(device: String, token: String)] {
        try await live.server.components.store.withDatabase { db in
            try await db.raw(
                "SELECT device_jkt, token FROM push_tokens WHERE user_id = \(bind: userGUID.lowercased())"
            ).all().map { row in
                (
                    try row.decode(column: "device_jkt", as: String.self),
                    try row.decode(column: "token", as: String.self)
                )
            }
        }
    }

    static func metric(_ live: NATSLive, _ series: String) -> String? {
        String(decoding: live.server.components.metrics.exposition(), as: UTF8.self)
            .split(separator: "\n").first { $0.hasPrefix(series + " ") }.map { String($0.dropFirst(series.count + 1)) }
    }

    @Test @MainActor func aDeviceKeepsOneTokenWhichRevocationAndSignOutRemove() async throws {
        try await Self.with { live, _ in
            let log = LogCapture()
            let device = try await NATSSDKLiveTests.messagingDevice(live, email: "push-register@example.com", log: log)
            let first = try Self.randomToken()
            let registered = try await device.vault.registerPushToken(
                first, environment: .sandbox, bundleID: Self.bundleID)
            #expect(registered.environment == .sandbox && registered.bundleID == Self.bundleID)
            #expect(try await Self.tokens(live, userGUID: device.userGUID).map(\.token) == [first.hex])

            // Registering again replaces the device's token: still one.
            let second = try Self.randomToken()
            _ = try await device.vault.registerPushToken(second, environment: .production, bundleID: Self.bundleID)
            #expect(try await Self.tokens(live, userGUID: device.userGUID).map(\.token) == [second.hex])

            // A member's session (no device), an unknown bundle id: refused; nothing stored.
            let memberRefusal = await NATSSDKLiveTests.apiError { () async throws(APIError) in
                try await device.member.apiClient.perform { client in
                    _ = try await client.registerPushToken(
                        body: .json(.init(token: first.hex, environment: .sandbox, bundleId: Self.bundleID))
                    ).ok
                }
            }
            #expect(memberRefusal?.code == .invalidToken)
            let otherApp = await NATSSDKLiveTests.apiError { () async throws(APIError) in
                try await device.vault.registerPushToken(first, environment: .sandbox, bundleID: "com.example.other")
            }
            #expect(otherApp?.code == .invalidRequest)
            #expect(try await Self.tokens(live, userGUID: device.userGUID).map(\.token) == [second.hex])

            // The token moves with the app installation: another device registering it takes it.
            let other = try await NATSSDKLiveTests.messagingDevice(live, email: "push-other@example.com", log: log)
            _ = try await other.vault.registerPushToken(second, environment: .production, bundleID: Self.bundleID)
            #expect(try await Self.tokens(live, userGUID: device.userGUID).isEmpty)
            #expect(try await Self.tokens(live, userGUID: other.userGUID).map(\.token) == [second.hex])

            // DELETE removes it, and is fine when there is none.
            try await other.vault.removePushToken()
            try await other.vault.removePushToken()
            #expect(try await Self.tokens(live, userGUID: other.userGUID).isEmpty)

            // Revoking the device removes its token; its vault session can no longer register one.
            _ = try await device.vault.registerPushToken(first, environment: .sandbox, bundleID: Self.bundleID)
            let credentialID = try #require(try await device.vault.credentialStore.load()?.package.credentialID)
            _ = try await live.server.components.vaultLifecycle.revoke(
                userID: try #require(UUID(uuidString: device.userGUID)), credentialID: credentialID, origin: .none)
            #expect(try await Self.tokens(live, userGUID: device.userGUID).isEmpty)
            let revoked = await NATSSDKLiveTests.apiError { () async throws(APIError) in
                try await device.vault.registerPushToken(first, environment: .sandbox, bundleID: Self.bundleID)
            }
            #expect(revoked != nil, "a revoked device's session registers nothing")
            #expect(try await Self.tokens(live, userGUID: device.userGUID).isEmpty)

            // Signing the member out with the device's key removes the device's token.
            _ = try await other.vault.registerPushToken(first, environment: .sandbox, bundleID: Self.bundleID)
            let onDevice = AuthManager(
                configuration: try .init(baseURL: live.server.baseURL, store: other.store, logger: VaultLive.logger))
            try await onDevice.login(email: "push-other@example.com", password: VaultLive.memberPassword)
            await onDevice.logout()
            let gone = await eventually(timeout: .seconds(5)) {
                (try? await Self.tokens(live, userGUID: other.userGUID).isEmpty) == true
            }
            #expect(gone, "signing out with the device's key removes its push token")
        }
    }

    @Test func aTokenThatIsNotHexOrAServerWithoutAPNsIsRefused() async throws {
        try await Self.with { live, _ in
            let push = live.server.components.push
            let userID = UUID()
            let jkt = String(repeating: "A", count: 43)
            for bad in [String(repeating: "a", count: 63), String(repeating: "g", count: 64), ""] {
                await #expect(throws: APIFailure.self) {
                    try await push.register(
                        userID: userID, deviceJKT: jkt, token: bad, environment: .sandbox, bundleID: Self.bundleID)
                }
            }
            let off = PushService(
                configuration: APNSConfiguration(), provider: nil, store: live.server.components.store,
                clock: SystemWallClock(), metrics: nil, logger: VaultLive.logger)
            do {
                _ = try await off.register(
                    userID: userID, deviceJKT: jkt, token: String(repeating: "a", count: 64), environment: .sandbox,
                    bundleID: Self.bundleID)
                Issue.record("a server without APNs registered a token")
            } catch let failure as APIFailure {
                #expect(failure.code == .pushNotConfigured && failure.status == .serviceUnavailable)
            }
        }
    }

    @Test @MainActor func anAbsentAppIsWokenAndAConnectedOneIsNot() async throws {
        try await Self.with { live, apns in
            let log = LogCapture()
            let email = "push-wake@example.com"
            let (device, manager, received) = try await MailboxLiveTests.appWithMailbox(live, email: email, log: log)
            await manager.connect()
            #expect(manager.state == .connected)
            let token = try Self.randomToken()
            _ = try await device.vault.registerPushToken(token, environment: .sandbox, bundleID: Self.bundleID)

            // Connected: the notice arrives live, the app answers the presence question, no push.
            try await MailboxLiveTests.signInElsewhere(live, email: email)
            let answered = await eventually(timeout: .seconds(10)) {
                Self.metric(live, #"vettid_apns_wakes_total{outcome="present"}"#) == "1"
            }
            #expect(answered, "the connected app answered the presence question")
            #expect(await eventually(timeout: .seconds(5)) { await received.notices.count == 1 })
            #expect(apns.exchanges.isEmpty, "no push for a connected app")

            // Away: one content-free alert push to the registered token.
            await manager.disconnect()
            try await MailboxLiveTests.signInElsewhere(live, email: email)
            let pushed = await eventually(timeout: .seconds(10)) { apns.exchanges.contains { $0.status == 200 } }
            #expect(pushed, "the absent app was woken")
            let push = try #require(apns.exchanges.first)
            #expect(push.deviceToken == token.hex)
            #expect(push.headers["apns-push-type"] == "alert" && push.headers["apns-priority"] == "10")
            #expect(push.headers["apns-topic"] == Self.bundleID)
            #expect(push.headers["apns-collapse-id"] == "vettid.mailbox")
            #expect(push.headers["apns-expiration"].flatMap(Int64.init) ?? 0 > Int64(Date().timeIntervalSince1970))
            let payload = String(decoding: push.payload, as: UTF8.self)
            #expect(payload.contains(#""mutable-content":1"#))
            #expect(!payload.contains("login") && !payload.contains(email) && !payload.contains("127.0.0.1"))
            #expect(!log.text.contains(token.hex), "the device token never reaches the logs")

            // The next connect hands the notice over (the push only rang the bell).
            await manager.connect()
            #expect(await eventually(timeout: .seconds(10)) { await received.notices.count == 2 })
            await manager.disconnect()
        }
    }

    @Test @MainActor func anUnregisteredAnswerAfterTheRegistrationDropsTheToken() async throws {
        try await Self.with { live, apns in
            let log = LogCapture()
            let email = "push-unregistered@example.com"
            let (device, manager, _) = try await MailboxLiveTests.appWithMailbox(live, email: email, log: log)
            await manager.connect()
            await manager.disconnect()
            let token = try Self.randomToken()
            _ = try await device.vault.registerPushToken(token, environment: .sandbox, bundleID: Self.bundleID)
            let later = Int64(Date().timeIntervalSince1970 * 1000) + 60_000
            apns.cue(.unregistered(timestamp: later), for: token.hex)
            try await MailboxLiveTests.signInElsewhere(live, email: email)
            let dropped = await eventually(timeout: .seconds(10)) {
                (try? await Self.tokens(live, userGUID: device.userGUID).isEmpty) == true
            }
            #expect(dropped, "410 Unregistered later than the registration drops the token")
            #expect(apns.exchanges.last?.status == 410)
        }
    }

    /// The Notification Service Extension's fetch: it shows the notice that woke it, keeps it for the app and
    /// acknowledges it; the app's next catch-up hands it over once (from the inbox, not the mailbox again).
    @Test @MainActor func theExtensionShowsTheNoticeAndTheAppGetsItOnce() async throws {
        try await NATSLive.with(configure: NATSSDKLiveTests.configure) { live in
            try await MailboxLiveTests.waitForMailboxes(live)
            let log = LogCapture()
            let email = "push-extension@example.com"
            let device = try await NATSSDKLiveTests.messagingDevice(live, email: email, log: log)
            let inbox = MailboxNotificationInbox(store: device.store)
            let connection = NatsConnectionManager.Configuration(
                tls: NATSTLSConfiguration(rootCertificatesPath: live.nats.caFile), logger: log.logger(label: "nats"),
                notificationInbox: inbox)
            let manager = NatsConnectionManager(
                configuration: connection, provider: device.vault, store: NatsCredentialStore(store: device.store))
            let received = MailboxLiveTests.Received()
            manager.mailboxHandler = { notice in await received.add(notice) }
            await manager.connect()
            await manager.disconnect()
            try await MailboxLiveTests.signInElsewhere(live, email: email)
            try await MailboxLiveTests.waitForRelay(live)

            // The extension's process: only the shared store.
            let fetcher = MailboxNotificationFetcher(
                configuration: .init(title: "VettID", connection: connection),
                credentials: NatsCredentialStore(store: device.store), keys: MailboxKeyStore(store: device.store),
                inbox: inbox)
            let content = try #require(await fetcher.fetch(), "the extension read the mailbox")
            #expect(content.count == 1 && content.title == "VettID")
            #expect(content.body.contains("login") && content.body.contains("127.0.0.1"))
            #expect(await inbox.peek().count == 1)
            // A second push finds nothing new: the push keeps its own text.
            #expect(await fetcher.fetch() == nil)

            // The app: the kept notice first, once (from the catch-up the connect starts, or from this one when it
            // runs first); the mailbox has nothing more, and a further catch-up hands over nothing.
            await manager.connect()
            _ = try #require(await manager.catchUpMailboxNow())
            #expect(await received.notices.map { $0.securityEvent?.kind } == ["login"])
            #expect(await inbox.peek().isEmpty)
            let again = try #require(await manager.catchUpMailboxNow())
            #expect(again.delivered == 0)
            #expect(await received.notices.count == 1)
            await manager.disconnect()

            // Expired credentials: the extension cannot renew them; the push keeps its own text.
            let stored = try #require(await NatsCredentialStore(store: device.store).load())
            let expiredStore = InMemorySecureStore()
            let expired = NatsCredentials(
                tokenID: stored.tokenID, jwt: stored.jwt, seed: stored.seed, creds: stored.creds,
                endpoint: stored.endpoint, expiresAt: Date(timeIntervalSinceNow: -1), permissions: stored.permissions,
                namespace: stored.namespace, clientType: stored.clientType, mailbox: stored.mailbox)
            try await NatsCredentialStore(store: expiredStore).save(expired)
            let late = MailboxNotificationFetcher(
                configuration: .init(connection: connection), credentials: NatsCredentialStore(store: expiredStore),
                keys: MailboxKeyStore(store: device.store), inbox: MailboxNotificationInbox(store: expiredStore))
            #expect(await late.fetch() == nil)
        }
    }
}
