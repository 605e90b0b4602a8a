// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Logging
import NATSClient
import NIOConcurrencyHelpers
public import VettIDClient
public import VettIDMessaging

/// What a Notification Service Extension shows instead of the push's neutral text.
public struct MailboxNotificationContent: Sendable, Hashable {
    /// The alert's title.
    public let title: String
    /// The alert's body: the newest notice, and how many arrived.
    public let body: String
    /// Notices the fetch took from the mailbox (all kept for the app).
    public let count: Int

    public init(title: String, body: String, count: Int) {
        self.title = title
        self.body = body
        self.count = count
    }

    /// The content for `notices` (oldest first) under `title`; `nil` for none.
    public static func describing(_ notices: [MailboxNotice], title: String) -> MailboxNotificationContent? {
        guard let newest = notices.last else { return nil }
        let body = notices.count == 1 ? newest.summary : "\(notices.count) new messages; the latest: \(newest.summary)"
        return MailboxNotificationContent(title: title, body: body, count: notices.count)
    }
}

/// The fetch-and-decrypt of a Notification Service Extension (docs/protocol.md 7.6): with the credentials and the
/// mailbox key the app keeps in the shared store, it connects, takes what waits in the device's mailbox (each notice
/// opened with the device's key, kept in the ``MailboxNotificationInbox`` for the app, then acknowledged) and
/// describes it, within ``Configuration/timeLimit``.
///
/// `nil` means "show the push as it came" (its neutral text): no credentials, expired ones (the extension cannot
/// renew them: that needs the device key's proof and the server), no mailbox, nothing new, a failure or no answer in
/// time. Notices kept before the time ran out stay kept; the rest waits in the mailbox for the app.
public struct MailboxNotificationFetcher: Sendable {
    /// How the fetcher connects and how long it may take.
    public struct Configuration: Sendable {
        /// The alert title over the decrypted text.
        public var title: String
        /// The longest a fetch may take; the system gives an extension about 30 s in all.
        public var timeLimit: Duration
        /// The connection settings (TLS roots, transport, logger) as the app's manager uses them.
        public var connection: NatsConnectionManager.Configuration

        public init(
            title: String = "VettID", timeLimit: Duration = .seconds(20),
            connection: NatsConnectionManager.Configuration = .init()
        ) {
            self.title = title
            self.timeLimit = timeLimit
            self.connection = connection
        }
    }

    private let configuration: Configuration
    private let credentials: NatsCredentialStore
    private let keys: MailboxKeyStore
    private let inbox: MailboxNotificationInbox

    /// A fetcher over the shared store's `credentials`, mailbox `keys` and `inbox`.
    public init(
        configuration: Configuration = Configuration(), credentials: NatsCredentialStore, keys: MailboxKeyStore,
        inbox: MailboxNotificationInbox
    ) {
        self.configuration = configuration
        self.credentials = credentials
        self.keys = keys
        self.inbox = inbox
    }

    /// Fetches, keeps and describes what waits in the mailbox; `nil` to show the push as it came.
    public func fetch() async -> MailboxNotificationContent? {
        let logger = configuration.connection.logger
        guard let credentials = await credentials.load(), let address = credentials.mailbox else {
            logger.info("NATS: no stored mailbox credentials; the push shows its own text")
            return nil
        }
        guard credentials.expiresAt > configuration.connection.wallClock.now() else {
            logger.info("NATS: the stored token expired; the push shows its own text")
            return nil
        }
        let client: NATSClient
        do {
            client = try NatsConnection.makeClient(credentials, configuration: configuration.connection)
        } catch {
            return nil
        }
        let kept = KeptNotices()
        let inbox = self.inbox
        let keys = self.keys
        let mailbox = NatsMailbox(key: { try? await keys.privateKey() }, logger: logger)
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                do {
                    try await client.connect()
                    _ = try await mailbox.catchUp(address, over: client.jetStream()) { notice in
                        // Kept before the acknowledgement: a notice the app cannot get from the mailbox any more is
                        // never lost.
                        try await inbox.keep(notice)
                        kept.append(notice)
                    }
                } catch {
                    logger.info("NATS: the extension's mailbox fetch failed", metadata: ["error": "\(error)"])
                }
            }
            group.addTask { [timeLimit = configuration.timeLimit] in
                try? await Task.sleep(for: timeLimit)
            }
            await group.next()
            // Closing ends a pull or connect still under way, so the group returns within the limit.
            await client.close()
            group.cancelAll()
        }
        return MailboxNotificationContent.describing(kept.notices, title: configuration.title)
    }
}

/// The notices one fetch kept, in order.
private final class KeptNotices: Sendable {
    private let box = NIOLockedValueBox<[MailboxNotice]>([])
    var notices: [MailboxNotice] { box.withLockedValue { $0 } }
    func append(_ notice: MailboxNotice) { box.withLockedValue { $0.append(notice) } }
}
