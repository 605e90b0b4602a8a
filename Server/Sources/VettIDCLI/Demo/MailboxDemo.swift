// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import VettIDClient
import VettIDLocalAPNS
import VettIDMessaging
import VettIDNats

/// The demo's mailbox section (docs/protocol.md 7.5): the app goes away, the member signs in elsewhere, the vault
/// leaves a sealed notice in the device's mailbox and wakes the absent device with a content-free push (docs/protocol.md
/// 7.6), and the app's next connect hands the notice over, once.
@MainActor
struct MailboxDemo {
    let reporter: DemoReporter
    private let arrivals = Arrivals()

    init(reporter: DemoReporter) {
        self.reporter = reporter
    }

    /// What the app's mailbox handler received.
    actor Arrivals {
        var notices: [MailboxNotice] = []
        func add(_ notice: MailboxNotice) { notices.append(notice) }
    }

    /// The app's handler: keeps each notice for the section to print.
    var handler: NatsMailbox.Handler {
        let arrivals = self.arrivals
        return { notice in await arrivals.add(notice) }
    }

    func run(
        manager: NatsConnectionManager, device: EnrolledDemoDevice, baseURL: URL, apns: LocalAPNSServer
    ) async throws {
        let before = await arrivals.notices.count
        let token = try PushDeviceToken((0..<32).map { _ in UInt8.random(in: 0...255) })
        try await reporter.step("push: register token") {
            let registration = try await device.vault.registerPushToken(
                token, environment: .sandbox, bundleID: DemoBackend.pushBundleID)
            return (
                (),
                "a \(registration.environment.rawValue) APNs token for \(registration.bundleID), over the device's vault session (DPoP); the server never logs it"
            )
        }
        try await reporter.step("mailbox: app away") {
            guard let mailbox = await NatsCredentialStore(store: device.deviceStore).load()?.mailbox else {
                throw DemoFailure("the device's token names no mailbox")
            }
            await manager.disconnect()
            let elsewhere = AuthManager(configuration: try .init(baseURL: baseURL, store: InMemorySecureStore()))
            try await elsewhere.login(email: device.memberEmail, password: device.memberPassword)
            return (
                (),
                "the app disconnected; the member signed in elsewhere; the vault sealed a notice (HPKE to the device's X25519 key) into \(mailbox.stream) \(mailbox.consumer.prefix(16))…"
            )
        }
        try await reporter.step("push: wake the absent app") {
            let clock = ContinuousClock()
            let deadline = clock.now + .seconds(10)
            func push() -> LocalAPNSServer.Exchange? {
                apns.exchanges.last { $0.deviceToken == token.hex && $0.status == 200 }
            }
            while push() == nil, clock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
            guard let push = push() else { throw DemoFailure("no wake push reached the local APNs within 10 s") }
            let payload = String(decoding: push.payload, as: UTF8.self)
            return (
                (),
                "nobody answered the presence question, so APNs got \(push.headers["apns-push-type"] ?? "?") push \(push.headers["apns-id"]?.prefix(8) ?? "")… (priority \(push.headers["apns-priority"] ?? "?"), collapse id \(push.headers["apns-collapse-id"] ?? "-"), ES256 provider token): \(payload): no private data; the app's Notification Service Extension replaces the text"
            )
        }
        try await reporter.step("mailbox: next connect") {
            await manager.connect()
            guard manager.state == .connected else { throw DemoFailure("the manager is \(manager.state)") }
            let clock = ContinuousClock()
            let deadline = clock.now + .seconds(10)
            func signIn() async -> MailboxNotice? {
                await arrivals.notices.dropFirst(before).last { $0.securityEvent?.kind == "login" }
            }
            while await signIn() == nil, clock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
            guard let notice = await signIn() else {
                throw DemoFailure("the sign-in notice did not arrive from the mailbox within 10 s")
            }
            let again = await manager.catchUpMailbox()
            return (
                (),
                "arrived: \(notice.summary); acknowledged, so a second catch-up hands over \(again?.delivered ?? 0); \(manager.mailboxArrivals) notices in all"
            )
        }
    }
}
