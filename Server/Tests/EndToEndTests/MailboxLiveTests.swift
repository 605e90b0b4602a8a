// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
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
import VettIDTestSupport

@testable import VettIDServer

/// The devices' mailboxes (docs/protocol.md 7.5) end to end: the SDK's manager, the server's relay and a real
/// nats-server with JetStream in operator mode.
@Suite(.enabled(if: NATSLive.isAvailable, "nats-server is not installed"), .timeLimit(.minutes(3)))
struct MailboxLiveTests {
    /// What the app's handler received.
    actor Received {
        var notices: [MailboxNotice] = []
        func add(_ notice: MailboxNotice) { notices.append(notice) }
    }

    /// A user of the application account that may use the whole JetStream API (the test's auditor, not a member).
    static func auditor(_ live: NATSLive) async throws -> (NATSClient, JetStreamContext) {
        let user = try live.server.components.natsTrust.userCredentials(
            name: "audit",
            permissions: NatsPermissionSet(publish: ["$JS.API.>", "$JS.ACK.>"], subscribe: ["_AUDIT.>"]),
            issuedAt: Int64(Date().timeIntervalSince1970), expiresAt: nil)
        let client = try NATSClient(
            configuration: .init(
                servers: [live.nats.url], auth: .jwt(user.jwt, seed: user.seed), inboxPrefix: "_AUDIT",
                tls: NATSTLSConfiguration(rootCertificatesPath: live.nats.caFile)))
        try await client.connect()
        return (client, client.jetStream())
    }

    /// Signs the member in from another client: a `login` security event, so a notice for every mailbox.
    @MainActor
    static func signInElsewhere(_ live: NATSLive, email: String) async throws {
        let other = AuthManager(
            configuration: try .init(
                baseURL: live.server.baseURL, store: InMemorySecureStore(), logger: VaultLive.logger))
        try await other.login(email: email, password: VaultLive.memberPassword)
    }

    static func waitForMailboxes(_ live: NATSLive) async throws {
        // The relay's connection retries every second; under a loaded 2-core machine with the suite's servers
        // starting in parallel, JetStream took longer than 30 s once.
        let ready = await eventually(timeout: .seconds(60)) { live.server.components.mailbox?.isReady == true }
        try #require(ready, "the server's mailbox stream was not ready within 60 s")
    }

    /// Waits until the relay has emptied the outbox.
    static func waitForRelay(_ live: NATSLive) async throws {
        let mailbox = try #require(live.server.components.mailbox)
        let empty = await eventually(timeout: .seconds(10)) { (try? await mailbox.waitingNotices()) == 0 }
        try #require(empty, "the relay did not deliver the outbox within 10 s")
    }

    /// A messaging device of a new member `email` whose app (the manager) has a handler that keeps every notice,
    /// once the server's mailbox stream is ready.
    @MainActor
    static func appWithMailbox(_ live: NATSLive, email: String, log: LogCapture) async throws
        -> (device: NATSSDKLiveTests.Device, manager: NatsConnectionManager, received: Received)
    {
        try await waitForMailboxes(live)
        let device = try await NATSSDKLiveTests.messagingDevice(live, email: email, log: log)
        let received = Received()
        let manager = NATSSDKLiveTests.manager(live, device, log: log)
        manager.mailboxHandler = { notice in await received.add(notice) }
        return (device, manager, received)
    }

    @Test @MainActor func aNoticeSentWhileTheAppWasAwayArrivesOnTheNextConnectOnceAndSealed() async throws {
        try await NATSLive.with(configure: NATSSDKLiveTests.configure) { live in
            let log = LogCapture()
            let email = "mailbox-away@example.com"
            let (device, manager, received) = try await Self.appWithMailbox(live, email: email, log: log)
            await manager.connect()
            #expect(manager.state == .connected)
            let credentials = try #require(await NatsCredentialStore(store: device.store).load())
            let address = try #require(credentials.mailbox, "an app token of a device names its mailbox")
            let thumbprint = String(address.subject.split(separator: ".").last!)
            #expect(address == (try MailboxAddress(namespace: credentials.namespace, deviceJKT: thumbprint)))
            #expect(
                credentials.permissions.publish
                    == NatsPermissionSet.forClient(.app, in: credentials.namespace).publish + [
                        address.pullSubject, address.ackSubjects,
                    ])
            // Connecting caught up: the device's own enrollment and sign-in events were written before it had a
            // mailbox, so nothing was waiting.
            #expect(await received.notices.isEmpty)

            // The app goes away; the member signs in on the portal meanwhile.
            await manager.disconnect()
            try await Self.signInElsewhere(live, email: email)
            try await Self.waitForRelay(live)

            // In the stream: one message on the device's subject, sealed (no plaintext of the event).
            let (auditClient, audit) = try await Self.auditor(live)
            defer { Task { await auditClient.close() } }
            let before = try await audit.consumerInfo(address.consumer, on: address.stream)
            #expect(before.pending == 1)
            try await audit.createConsumer(
                ConsumerConfiguration(durableName: "audit", filterSubject: address.subject), on: address.stream)
            let stored = try await audit.fetch(batch: 10, from: "audit", on: address.stream, noWait: true)
            #expect(stored.count == 1)
            let raw = Array(try #require(stored.first).payload.readableBytesView)
            #expect(raw.first == MailboxSeal.version)
            let rawText = String(decoding: raw, as: UTF8.self)
            #expect(!rawText.contains("login") && !rawText.contains("security_event") && !rawText.contains("127.0.0.1"))
            let messageID = try #require(stored.first?.headers?["Nats-Msg-Id"])
            #expect(messageID.hasSuffix(":" + thumbprint))
            try await audit.deleteConsumer("audit", on: address.stream)

            // The next connect hands it to the app, once.
            await manager.connect()
            let arrived = await eventually(timeout: .seconds(10)) { await received.notices.count == 1 }
            #expect(arrived)
            let notice = try #require(await received.notices.first)
            #expect(notice.kind == .securityEvent)
            #expect(notice.securityEvent?.kind == "login")
            #expect(messageID == address.messageID(noticeID: notice.id))
            // The count moves when the connect's catch-up returns (after its confirmed ack), which may be a moment
            // after the handler ran; the second catch-up waits its turn behind it.
            #expect(await eventually(timeout: .seconds(5)) { manager.mailboxArrivals == 1 })
            let again = try #require(await manager.catchUpMailboxNow())
            #expect(again.delivered == 0 && again.duplicates == 0 && again.terminated == 0, "acknowledged: gone")
            let after = try await audit.consumerInfo(address.consumer, on: address.stream)
            #expect(after.pending == 0 && after.ackPending == 0)

            // While connected, a notice arrives live (through a catch-up that acknowledges it), once.
            try await Self.signInElsewhere(live, email: email)
            let live2 = await eventually(timeout: .seconds(10)) { await received.notices.count == 2 }
            #expect(live2)
            try await Task.sleep(for: .milliseconds(300))
            #expect(await received.notices.count == 2)
            #expect(Set(await received.notices.map(\.id)).count == 2)

            // A relaunch with a fresh manager over the same store: nothing is handed over twice.
            await manager.disconnect()
            let relaunched = NATSSDKLiveTests.manager(live, device, log: log)
            let relaunchReceived = Received()
            relaunched.mailboxHandler = { notice in await relaunchReceived.add(notice) }
            await relaunched.connect()
            let report = try #require(await relaunched.catchUpMailboxNow())
            #expect(report.delivered == 0)
            #expect(await relaunchReceived.notices.isEmpty)
            await relaunched.disconnect()
            NATSSDKLiveTests.expectNoSecrets(of: [credentials], in: log.lines)
        }
    }

    @Test @MainActor func anAppMayPullAndAckOnlyItsOwnConsumerAndNothingElseOfJetStream() async throws {
        try await NATSLive.with(configure: NATSSDKLiveTests.configure) { live in
            try await Self.waitForMailboxes(live)
            let log = LogCapture()
            let mine = try await NATSSDKLiveTests.messagingDevice(live, email: "mailbox-mine@example.com", log: log)
            let theirs = try await NATSSDKLiveTests.messagingDevice(live, email: "mailbox-theirs@example.com", log: log)
            let myToken = try await mine.vault.issueCredentials()
            let theirToken = try await theirs.vault.issueCredentials()
            let myMailbox = try #require(myToken.mailbox)
            let theirMailbox = try #require(theirToken.mailbox)
            try await Self.signInElsewhere(live, email: "mailbox-theirs@example.com")
            try await Self.waitForRelay(live)
            let (auditClient, audit) = try await Self.auditor(live)
            defer { Task { await auditClient.close() } }
            #expect(try await audit.consumerInfo(theirMailbox.consumer, on: theirMailbox.stream).pending == 1)

            let client = try NATSClient(
                configuration: .init(
                    servers: [live.nats.url], auth: .jwt(myToken.jwt, seed: myToken.seed),
                    requestTimeout: .seconds(1), inboxPrefix: myToken.namespace.appInboxPrefix))
            try await client.connect()
            defer { Task { await client.close() } }
            let jetStream = JetStreamContext(client: client, timeout: .seconds(1))
            // Its own consumer: allowed (nothing waits there).
            #expect(try await jetStream.fetch(from: myMailbox.consumer, on: myMailbox.stream, noWait: true).isEmpty)
            // Another member's consumer: nats-server refuses the pull; their message stays.
            await #expect(throws: JetStreamError.self) {
                _ = try await jetStream.fetch(from: theirMailbox.consumer, on: theirMailbox.stream, noWait: true)
            }
            // No management, no direct get, no other consumer of its own member.
            await #expect(throws: JetStreamError.self) { _ = try await jetStream.streamInfo(MailboxAddress.streamName) }
            await #expect(throws: JetStreamError.self) { _ = try await jetStream.accountInfo() }
            await #expect(throws: JetStreamError.self) {
                try await jetStream.createConsumer(
                    ConsumerConfiguration(durableName: "mine-too", filterSubject: myMailbox.subject),
                    on: MailboxAddress.streamName)
            }
            await #expect(throws: JetStreamError.self) {
                try await jetStream.deleteConsumer(myMailbox.consumer, on: myMailbox.stream)
            }
            await #expect(throws: JetStreamError.self) {
                _ = try await jetStream.request("DIRECT.GET.\(MailboxAddress.streamName)", as: StreamInfo.self)
            }
            // Publishing into a mailbox (its own or another's) is the vault's alone.
            try? client.publish(ByteBuffer(string: "forged"), to: theirMailbox.subject)
            try? client.publish(ByteBuffer(string: "forged"), to: myMailbox.subject)
            try? await client.flush()
            let theirsAfter = try await audit.consumerInfo(theirMailbox.consumer, on: theirMailbox.stream)
            #expect(theirsAfter.pending == 1, "their consumer after the refusals: \(theirsAfter)")
            #expect(try await audit.consumerInfo(myMailbox.consumer, on: myMailbox.stream).pending == 0)
        }
    }

    @Test @MainActor func onlyADeviceRegistersAUsableKeyAndARevokedDeviceLosesItsConsumer() async throws {
        try await NATSLive.with(configure: NATSSDKLiveTests.configure) { live in
            try await Self.waitForMailboxes(live)
            let log = LogCapture()
            let device = try await NATSSDKLiveTests.messagingDevice(live, email: "mailbox-revoke@example.com", log: log)
            let goodKey = try await device.vault.mailboxKeys.publicKeyBase64URL()
            // A member's session names no device: refused.
            let member = device.member
            let memberRefusal = await NATSSDKLiveTests.apiError { () async throws(APIError) in
                try await member.apiClient.perform { client in
                    _ = try await client.createNatsToken(body: .json(.init(clientType: .app, mailboxKey: goodKey))).ok
                }
            }
            #expect(memberRefusal?.code == .invalidRequest)
            // A small-order key, and a vault token with a key: refused.
            let zero = Base64URL.encode([UInt8](repeating: 0, count: 32))
            let smallOrder = await NATSSDKLiveTests.apiError { () async throws(APIError) in
                try await device.vault.createNatsToken(clientType: .app, deviceID: nil, mailboxKey: zero)
            }
            #expect(smallOrder?.code == .invalidRequest)
            let vaultWithKey = await NATSSDKLiveTests.apiError { () async throws(APIError) in
                try await device.vault.createNatsToken(clientType: .vault, deviceID: nil, mailboxKey: goodKey)
            }
            #expect(vaultWithKey?.code == .invalidRequest)
            // Without a key: a token without a mailbox, and no JetStream in its permissions.
            let plain = try await device.vault.createNatsToken(clientType: .app, deviceID: nil, mailboxKey: nil)
            #expect(plain.mailbox == nil)
            #expect(!plain.permissions.publish.contains { $0.hasPrefix("$JS") })

            let token = try await device.vault.issueCredentials()
            let address = try #require(token.mailbox)
            let (auditClient, audit) = try await Self.auditor(live)
            defer { Task { await auditClient.close() } }
            _ = try await audit.consumerInfo(address.consumer, on: address.stream)

            let credentialID = try #require(try await device.vault.credentialStore.load()?.package.credentialID)
            _ = try await live.server.components.vaultLifecycle.revoke(
                userID: try #require(UUID(uuidString: device.userGUID)), credentialID: credentialID, origin: .none)
            let gone = await eventually(timeout: .seconds(5)) {
                do {
                    _ = try await audit.consumerInfo(address.consumer, on: address.stream)
                    return false
                } catch {
                    return (error as? JetStreamError)?.code == .consumerNotFound
                }
            }
            #expect(gone, "a revoked device's consumer is deleted")
            let keys = try await live.server.components.store.withDatabase { db in
                try await MailboxRepository().devices(userID: try #require(UUID(uuidString: device.userGUID)), on: db)
            }
            #expect(keys.isEmpty)
        }
    }

    @Test @MainActor func aBackgroundRefreshCatchesUpAndLeavesTheAppAsItWas() async throws {
        try await NATSLive.with(configure: NATSSDKLiveTests.configure) { live in
            let log = LogCapture()
            let email = "mailbox-background@example.com"
            let (device, manager, received) = try await Self.appWithMailbox(live, email: email, log: log)
            await manager.connect()
            await manager.disconnect()
            // The app is suspended; the member signs in elsewhere.
            try await Self.signInElsewhere(live, email: email)
            try await Self.waitForRelay(live)
            #expect(await received.notices.isEmpty)

            // The system runs the NATS refresh in a background launch: the token is not due, the mailbox is read.
            let scheduler = ManualScheduler()
            let refresh = NatsTokenRefreshTask(
                provider: device.vault, store: NatsCredentialStore(store: device.store), scheduler: scheduler,
                manager: manager)
            try await refresh.start()
            #expect(await scheduler.fire(NatsTokenRefreshTask.defaultIdentifier) == true)
            var outcomes = refresh.outcomes.makeAsyncIterator()
            guard case .notNeeded? = await outcomes.next() else {
                Issue.record("the refresh did not find the token current")
                return
            }
            #expect(await received.notices.map { $0.securityEvent?.kind } == ["login"])
            #expect(manager.state == .disconnected, "it connected for the catch-up only")
            #expect(manager.mailboxArrivals == 1)
            // Nothing twice: the next background run hands nothing over.
            #expect(await manager.catchUpMailboxInBackground()?.delivered == 0)
            #expect(await received.notices.count == 1)
            await refresh.stop()
        }
    }
}
