// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
public import Logging
public import NATSClient
import VettIDClient
public import VettIDCore

extension NatsConnectionManager {
    /// How a ``NatsConnectionManager`` connects and refreshes; immutable once the manager is created.
    public struct Configuration: Sendable {
        /// When to refresh the token (``NatsConnectionManagerStateMachine/Timing/refreshWindow``: one hour before expiry).
        public var timing: NatsConnectionManagerStateMachine.Timing
        /// TLS roots (a custom CA for a `tls://` endpoint), client certificate, server name.
        public var tls: NATSTLSConfiguration
        /// How `NATSClient` reconnects after losing the server (a restart, the network).
        public var reconnect: NATSReconnectPolicy
        /// The connection name shown in nats-server monitoring.
        public var name: String?
        /// TCP connect and handshake limit.
        public var connectTimeout: Duration
        /// Default timeout of requests to the vault.
        public var requestTimeout: Duration
        /// Messages buffered per managed subscription before new ones are dropped.
        public var subscriptionPendingLimit: Int
        /// Message identities remembered per subscription to drop the copies a swap's overlap delivers twice.
        public var deduplicationWindow: Int
        /// How long a swap waits for the old connection's requests and drain before closing it.
        public var drainTimeout: Duration
        /// Where the manager logs (token ids and expiries; never JWTs, seeds or creds).
        public var logger: Logger
        /// Times refreshes (tests pass a faster or manual clock).
        public var clock: any Clock<Duration>
        /// The current time for expiry checks.
        public var wallClock: any WallClock
        /// The network stack (`NATSClient` chooses by default).
        public var transport: NATSTransport
        /// Notices the app's Notification Service Extension took from the mailbox (in the app group's store): every
        /// catch-up hands them to ``NatsConnectionManager/mailboxHandler`` first. `nil` without an extension.
        public var notificationInbox: MailboxNotificationInbox?

        /// Creates a configuration.
        public init(
            timing: NatsConnectionManagerStateMachine.Timing = .init(),
            tls: NATSTLSConfiguration = NATSTLSConfiguration(),
            reconnect: NATSReconnectPolicy = NATSReconnectPolicy(maxAttemptsPerServer: nil),
            name: String? = "vettid-app",
            connectTimeout: Duration = .seconds(5),
            requestTimeout: Duration = .seconds(10),
            subscriptionPendingLimit: Int = 65_536,
            deduplicationWindow: Int = 4096,
            drainTimeout: Duration = .seconds(10),
            logger: Logger = Logger(label: "dev.vettid.nats"),
            clock: any Clock<Duration> = ContinuousClock(),
            wallClock: any WallClock = SystemWallClock(),
            transport: NATSTransport = .automatic,
            notificationInbox: MailboxNotificationInbox? = nil
        ) {
            self.timing = timing
            self.tls = tls
            self.reconnect = reconnect
            self.name = name
            self.connectTimeout = connectTimeout
            self.requestTimeout = requestTimeout
            self.subscriptionPendingLimit = subscriptionPendingLimit
            self.deduplicationWindow = deduplicationWindow
            self.drainTimeout = drainTimeout
            self.logger = logger
            self.clock = clock
            self.wallClock = wallClock
            self.transport = transport
            self.notificationInbox = notificationInbox
        }
    }
}
