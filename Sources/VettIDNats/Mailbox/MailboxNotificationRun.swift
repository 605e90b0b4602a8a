// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import NIOConcurrencyHelpers

/// One run of a Notification Service Extension: the fetch of ``MailboxNotificationFetcher`` raced against the
/// system's deadline, and exactly one answer handed to the content handler.
///
/// The extension calls ``start()`` from `didReceive(_:withContentHandler:)` and ``expire()`` from
/// `serviceExtensionTimeWillExpire()`, which the system calls on another thread shortly before it ends the
/// extension. Whichever comes first is delivered: the fetched content, or `nil` ("show the push as it came", its
/// neutral text) when the time ran out or the fetch had nothing; the other is dropped, and an expiry cancels the
/// fetch. Nothing is lost when the time runs out: what the fetch read was kept in the ``MailboxNotificationInbox``
/// for the app before it was acknowledged, and the rest waits in the mailbox.
public final class MailboxNotificationRun: Sendable {
    private enum State {
        case idle
        case fetching(Task<Void, Never>)
        case delivered
    }

    private let state = NIOLockedValueBox(State.idle)
    private let fetch: @Sendable () async -> MailboxNotificationContent?
    private let deliver: @Sendable (MailboxNotificationContent?) -> Void

    /// A run of `fetch` whose answer goes to `deliver`, called once (on the fetch's task, or on the thread that
    /// calls ``expire()``).
    public init(
        fetch: @escaping @Sendable () async -> MailboxNotificationContent?,
        deliver: @escaping @Sendable (MailboxNotificationContent?) -> Void
    ) {
        self.fetch = fetch
        self.deliver = deliver
    }

    /// A run of `fetcher`.
    public convenience init(
        fetcher: MailboxNotificationFetcher, deliver: @escaping @Sendable (MailboxNotificationContent?) -> Void
    ) {
        self.init(fetch: { await fetcher.fetch() }, deliver: deliver)
    }

    /// Whether the answer was handed over.
    public var isDelivered: Bool {
        state.withLockedValue { state in
            if case .delivered = state { return true }
            return false
        }
    }

    /// Starts the fetch; its answer is delivered unless ``expire()`` came first. Later calls do nothing.
    public func start() {
        state.withLockedValue { state in
            guard case .idle = state else { return }
            // The task takes the lock to deliver, so it cannot finish before its state is recorded here.
            state = .fetching(
                Task { [self] in
                    finish(await fetch())
                })
        }
    }

    /// The time is up: delivers `nil` (the push as it came) at once, unless the answer was delivered already, and
    /// cancels the fetch.
    public func expire() {
        let (first, task) = state.withLockedValue { state -> (Bool, Task<Void, Never>?) in
            switch state {
            case .idle:
                state = .delivered
                return (true, nil)
            case .fetching(let task):
                state = .delivered
                return (true, task)
            case .delivered:
                return (false, nil)
            }
        }
        task?.cancel()
        if first { deliver(nil) }
    }

    private func finish(_ content: MailboxNotificationContent?) {
        let first = state.withLockedValue { state -> Bool in
            if case .delivered = state { return false }
            state = .delivered
            return true
        }
        if first { deliver(content) }
    }
}
