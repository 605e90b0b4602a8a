// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import VettIDClient
import VettIDNats

/// What the example app and its Notification Service Extension share: one keychain item, in the app group both
/// targets are in, so the extension reads the NATS credentials and the mailbox key the app stored and keeps what it
/// fetched for the app (compiled into both targets).
enum ExampleSharedStore {
    /// The app group of both targets (App Groups capability, both entitlements files). An app group is also one of
    /// an app's keychain access groups (https://developer.apple.com/documentation/security/ksecattraccessgroup), so
    /// it is the store's access group too, and needs no team prefix here.
    static let appGroup = "group.dev.vettid.example"
    /// The keychain service of the store: the app's bundle id, in the extension too (whose own id differs).
    static let service = "dev.vettid.example"

    /// The shared store: the keychain item of ``service`` in ``appGroup``; `nil` where there is no keychain.
    static func store() -> (any SecureStore)? {
        #if canImport(Security)
            return KeychainSecureStore(service: service, accessGroup: appGroup)
        #else
            return nil
        #endif
    }

    /// The extension's fetch over the shared store (the credentials, mailbox key and inbox the app's
    /// `NatsConnectionManager` uses, under the SDK's default `vettid` key prefix); `nil` without a keychain.
    static func notificationFetcher() -> MailboxNotificationFetcher? {
        guard let store = store() else { return nil }
        let logger = PlatformLogger.make(subsystem: service, category: "NotificationService")
        return MailboxNotificationFetcher(
            configuration: .init(title: "VettID", timeLimit: .seconds(20), connection: .init(logger: logger)),
            credentials: NatsCredentialStore(store: store), keys: MailboxKeyStore(store: store),
            inbox: MailboxNotificationInbox(store: store))
    }
}
