// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The exact publish/subscribe permissions of each kind of NATS user.

/// Who a NATS token is for.
public enum NatsClientType: String, Sendable, Hashable, CaseIterable, Codable {
    /// The member's app: sends to the vault, hears its answers and event types.
    case app
    /// The member's vault: the mirror image of the app, plus the member's `MessageSpace`.
    case vault
}

/// The subjects a NATS user may publish and subscribe to. nats-server enforces them from the user JWT.
public struct NatsPermissionSet: Sendable, Hashable {
    /// Subjects the user may publish to.
    public let publish: [String]
    /// Subjects the user may subscribe to.
    public let subscribe: [String]
    /// Whether the user may answer a request it received, once and within 5 seconds, on the request's reply
    /// subject even where ``publish`` does not allow it (the user JWT's `resp`): an app with a mailbox answers the
    /// relay's presence question (docs/protocol.md 7.6).
    public let mayReply: Bool

    public init(publish: [String], subscribe: [String], mayReply: Bool = false) {
        self.publish = publish
        self.subscribe = subscribe
        self.mayReply = mayReply
    }

    /// What a token of `type` for `namespace` allows, exactly.
    ///
    /// - app: publish `OwnerSpace.{guid}.forVault.>`; subscribe `OwnerSpace.{guid}.forApp.>` and
    ///   `OwnerSpace.{guid}.eventTypes`.
    /// - vault: publish `OwnerSpace.{guid}.forApp.>`, `OwnerSpace.{guid}.eventTypes`,
    ///   `MessageSpace.{guid}.forOwner.>`, `MessageSpace.{guid}.ownerProfile`, `MessageSpace.{guid}.call.>`;
    ///   subscribe `OwnerSpace.{guid}.forVault.>`, `MessageSpace.{guid}.forOwner.>`, `MessageSpace.{guid}.call.>`.
    public static func forClient(_ type: NatsClientType, in namespace: VaultNamespace) -> NatsPermissionSet {
        let owner = namespace.ownerSpace
        let message = namespace.messageSpace
        switch type {
        case .app:
            return NatsPermissionSet(
                publish: ["\(owner).forVault.>"],
                subscribe: ["\(owner).forApp.>", "\(owner).eventTypes"]
            )
        case .vault:
            return NatsPermissionSet(
                publish: [
                    "\(owner).forApp.>", "\(owner).eventTypes", "\(message).forOwner.>", "\(message).ownerProfile",
                    "\(message).call.>",
                ],
                subscribe: ["\(owner).forVault.>", "\(message).forOwner.>", "\(message).call.>"]
            )
        }
    }

    /// ``forClient(_:in:)`` for an app, plus exactly the pull and the acks of its own mailbox consumer when it has
    /// one (docs/protocol.md 7.5): nothing else of JetStream; and then one answer to each presence question
    /// (``mayReply``, docs/protocol.md 7.6).
    public static func app(in namespace: VaultNamespace, mailbox: MailboxAddress?) -> NatsPermissionSet {
        let app = forClient(.app, in: namespace)
        guard let mailbox else { return app }
        return NatsPermissionSet(
            publish: app.publish + [mailbox.pullSubject, mailbox.ackSubjects], subscribe: app.subscribe,
            mayReply: true)
    }

    /// The inbox prefix of the server's mailbox relay (its JetStream API answers and `PubAck`s).
    public static let mailboxRelayInboxPrefix = "_VETTID_MAILBOX_INBOX"

    /// The server's mailbox relay: manages the mailbox stream and the devices' consumers, publishes to every
    /// member's mailbox subjects and asks on their presence subjects; nothing else.
    public static let mailboxRelay: NatsPermissionSet = {
        let api = "$JS.API"
        let stream = MailboxAddress.streamName
        return NatsPermissionSet(
            publish: [
                "\(api).INFO", "\(api).STREAM.CREATE.\(stream)", "\(api).STREAM.UPDATE.\(stream)",
                "\(api).STREAM.INFO.\(stream)", "\(api).CONSUMER.CREATE.\(stream).>",
                "\(api).CONSUMER.DELETE.\(stream).*", "\(api).CONSUMER.INFO.\(stream).*",
                MailboxAddress.streamSubjects, MailboxAddress.presenceSubjects,
            ],
            subscribe: ["\(mailboxRelayInboxPrefix).>"]
        )
    }()

    /// The backend's vault worker: every member's requests in (only as a member of the `vault-workers` queue
    /// group: nats-server's `subject queue` permission form), every member's answers and event types out.
    public static let worker = NatsPermissionSet(
        publish: ["OwnerSpace.*.forApp.>", "OwnerSpace.*.eventTypes"],
        subscribe: ["\(VaultNamespace.allForVault) \(VaultNamespace.workerQueueGroup)"]
    )

    /// A worker of the vault instance whose sealed sessions have route `route` (eight hex digits): ``worker``'s
    /// permissions plus `OwnerSpace.*.forVault.sealed.{route}` only in the queue group `vault-workers-{route}`, so
    /// that instance's connections share its sessions' envelopes and no other instance's worker can take them.
    public static func worker(sealedRoute route: String) -> NatsPermissionSet {
        NatsPermissionSet(
            publish: worker.publish,
            subscribe: worker.subscribe + [
                "\(VaultNamespace.allSealed(route: route)) \(VaultNamespace.sealedQueueGroup(route: route))"
            ]
        )
    }
}
