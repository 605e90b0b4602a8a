// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDClient

extension VettID {
    /// The NATS connection manager of this app: the vault service issues its tokens (with the member's session),
    /// and they are kept in the same store. Its handler requests go over a sealed session with the vault, signed by
    /// the device key and checked against the vault keys pinned with the credential. Make one and keep it: it is
    /// attached to `vault.handlerLink`, so `vettid.vault.secrets` and `vettid.vault.profile` run over it.
    /// - Parameters:
    ///   - configuration: Timing, TLS and reconnection (default: the defaults, logging to the SDK's logger).
    ///   - sessionConfiguration: The sealed session's renewal margin, request validity and suites.
    public func natsManager(
        configuration: NatsConnectionManager.Configuration? = nil,
        sessionConfiguration: VaultSessionChannel.Configuration = .init()
    ) -> NatsConnectionManager {
        let configuration = configuration ?? NatsConnectionManager.Configuration(logger: self.configuration.logger)
        let session = VaultSessionChannel(
            configuration: sessionConfiguration,
            dependencies: .init(vault: vault, deviceKeyStore: deviceKeyStore))
        let manager = NatsConnectionManager(
            configuration: configuration, provider: vault, store: NatsCredentialStore(store: store),
            sealedSession: session)
        vault.handlerLink.attach(manager)
        return manager
    }
}
