// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// How the server issues NATS credentials and reaches nats-server (`nats_*` keys; docs/operations.md).
public struct NATSConfiguration: Sendable {
    /// Where this server connects to nats-server for revocation pushes and the vault worker (`nats_url`, e.g.
    /// `nats://127.0.0.1:4222` or `tls://…`). `nil`: NATS is off; tokens are not issued (503
    /// `nats_not_configured`) and no worker runs. Namespaces can still be allocated.
    public var url: String?
    /// The endpoint given to clients as `nats_endpoint` (`nats_public_url`); default: ``url``.
    public var publicURL: String?
    /// A PEM CA bundle this server trusts for nats-server's TLS certificate (`nats_ca_file`); default: the
    /// system roots.
    public var caFile: String?
    /// How long app tokens are valid (`nats_app_token_ttl_seconds`, default 24 hours, at most 24 hours).
    public var appTokenLifetime: Duration
    /// How long vault tokens are valid (`nats_vault_token_ttl_seconds`, default 24 hours, at most 24 hours).
    public var vaultTokenLifetime: Duration
    /// Active (unexpired, unrevoked) tokens a member may hold at once (`nats_max_active_tokens`, default 20);
    /// more get 429 `too_many_tokens`.
    public var maxActiveTokensPerMember: Int
    /// Vault worker connections this process runs in the `vault-workers` queue group (`nats_worker_instances`,
    /// default 1; 0 runs none, for a server that only issues tokens).
    public var workerInstances: Int
    /// Largest request payload a worker accepts (`nats_worker_max_payload_bytes`, default 64 KiB).
    public var workerMaxPayloadBytes: Int

    /// Whether the members' devices get mailboxes in JetStream (`nats_mailbox_enabled`, default true; docs/protocol.md
    /// 7.5). Without JetStream on nats-server the server logs it and issues tokens without a mailbox.
    public var mailboxEnabled: Bool = true
    /// How long a message waits in a mailbox (`nats_mailbox_max_age_seconds`, default 7 days).
    public var mailboxMaxAge: Duration = .seconds(7 * 24 * 3600)
    /// Messages kept per device, the oldest dropped first (`nats_mailbox_max_per_device`, default 1,000).
    public var mailboxMaxPerDevice: Int64 = 1_000
    /// Mailboxes per member (`nats_mailbox_max_devices`, default 10); one more replaces the least recently
    /// registered.
    public var mailboxMaxDevices: Int = 10
    /// JetStream file storage of the application account, in bytes (`nats_mailbox_max_bytes`, default 1 GiB).
    public var mailboxMaxBytes: Int64 = 1 << 30
    /// Replicas of the mailbox stream (`nats_mailbox_replicas`, default 1; 3 on a cluster).
    public var mailboxReplicas: Int = 1
    /// How often the relay looks for notices to deliver (`nats_mailbox_relay_interval_ms`, default 200 ms).
    public var mailboxRelayInterval: Duration = .milliseconds(200)

    public init(
        url: String? = nil,
        publicURL: String? = nil,
        caFile: String? = nil,
        appTokenLifetime: Duration = .seconds(24 * 3600),
        vaultTokenLifetime: Duration = .seconds(24 * 3600),
        maxActiveTokensPerMember: Int = 20,
        workerInstances: Int = 1,
        workerMaxPayloadBytes: Int = 64 * 1024
    ) {
        self.url = url
        self.publicURL = publicURL
        self.caFile = caFile
        self.appTokenLifetime = appTokenLifetime
        self.vaultTokenLifetime = vaultTokenLifetime
        self.maxActiveTokensPerMember = maxActiveTokensPerMember
        self.workerInstances = workerInstances
        self.workerMaxPayloadBytes = workerMaxPayloadBytes
    }

    /// What clients are told to connect to.
    public var advertisedURL: String? { publicURL ?? url }
}
