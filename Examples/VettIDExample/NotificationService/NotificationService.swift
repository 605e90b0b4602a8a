// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import UserNotifications
import VettIDNats

/// The example app's Notification Service Extension (docs/protocol.md 7.6): the server's wake push carries only a
/// neutral text; this fetches the device's mailbox with the credentials the app keeps in the shared store, and shows
/// the decrypted notice instead, or the push as it came when it cannot within its time.
///
/// All decisions are the SDK's, tested on Linux: `MailboxNotificationFetcher` (connect, take, keep for the app,
/// describe, within 20 s) and `MailboxNotificationRun` (the fetch against the system's deadline, one answer).
final class NotificationService: UNNotificationServiceExtension {
    private var run: MailboxNotificationRun?

    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        let pending = PendingNotification(content: request.content, handler: contentHandler)
        guard let fetcher = ExampleSharedStore.notificationFetcher() else {
            pending.deliver(nil)
            return
        }
        let run = MailboxNotificationRun(fetcher: fetcher) { fetched in pending.deliver(fetched) }
        self.run = run
        run.start()
    }

    override func serviceExtensionTimeWillExpire() {
        // The best attempt at once: the fetched text if it arrived, else the push as it came.
        run?.expire()
    }
}

/// The push's content and the system's content handler, handed over once.
///
/// `@unchecked Sendable`: neither is documented `Sendable`, and the answer is given either on the fetch's task or
/// on the thread `serviceExtensionTimeWillExpire()` runs on. `MailboxNotificationRun` calls ``deliver(_:)`` exactly
/// once (under its lock), so the handler runs once and the content is read by one thread; the content is the
/// system's copy of the request's (`@NSCopying`), which nothing else changes.
private struct PendingNotification: @unchecked Sendable {
    let content: UNNotificationContent
    let handler: (UNNotificationContent) -> Void

    /// Shows `fetched` in a mutable copy of the push's content, or the push as it came for `nil`.
    func deliver(_ fetched: MailboxNotificationContent?) {
        guard let fetched, let copy = content.mutableCopy() as? UNMutableNotificationContent else {
            handler(content)
            return
        }
        copy.title = fetched.title
        copy.body = fetched.body
        handler(copy)
    }
}
