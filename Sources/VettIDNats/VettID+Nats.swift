// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDClient

extension VettID {
    /// The NATS connection manager of this app: the vault service issues its tokens (with the member's session),
    /// and they are kept in the same store. Make one and keep it.
    /// - Parameter configuration: Timing, TLS and reconnection (default: the defaults, logging to the SDK's logger).
    public func natsManager(configuration: NatsConnectionManager.Configuration? = nil) -> NatsConnectionManager {
        let configuration = configuration ?? NatsConnectionManager.Configuration(logger: self.configuration.logger)
        return NatsConnectionManager(
            configuration: configuration, provider: vault, store: NatsCredentialStore(store: store))
    }
}
