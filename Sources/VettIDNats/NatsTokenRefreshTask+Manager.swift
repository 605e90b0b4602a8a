// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Logging
public import VettIDClient

extension NatsTokenRefreshTask {
    /// Creates a refresh task that hands new credentials to `manager` (which swaps to them if it is connected), and
    /// after each run catches up on the device's mailbox (``NatsConnectionManager/catchUpMailboxInBackground()``):
    /// what the vault left there while the app slept reaches the app's handler in the background launch.
    public init(
        provider: any NatsCredentialProvider,
        store: NatsCredentialStore,
        scheduler: any BackgroundScheduler,
        manager: NatsConnectionManager,
        identifier: String = NatsTokenRefreshTask.defaultIdentifier,
        interval: Duration = NatsTokenRefreshTask.defaultInterval,
        logger: Logger = Logger(label: "dev.vettid.nats.refresh")
    ) {
        self.init(
            provider: provider, store: store, scheduler: scheduler, identifier: identifier, interval: interval,
            refreshWindow: manager.configuration.timing.refreshWindow, logger: logger,
            clock: manager.configuration.wallClock
        ) { [weak manager] credentials in
            await manager?.refresh(using: credentials)
        } afterRun: { [weak manager] in
            _ = await manager?.catchUpMailboxInBackground()
        }
    }
}
