// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import NATSClient
import VettIDClient
public import VettIDMessaging

/// The vault's side of `MessageSpace.{guid}`, for a `vault` token: what others send the member (`forOwner.>`),
/// call signalling (`call.>`), and the owner's profile.
public struct MessageSpaceClient: Sendable {
    /// The member's namespaces.
    public let namespace: VaultNamespace
    let connection: NatsConnection

    /// Creates a client over `connection` (``NatsConnectionManager/messageSpace()`` does this).
    public init(connection: NatsConnection, namespace: VaultNamespace) {
        self.connection = connection
        self.namespace = namespace
    }

    /// Messages on `MessageSpace.{guid}.forOwner.>`; survives swaps.
    public func subscribeForOwner() throws(NatsConnectionError) -> NatsManagedSubscription {
        try connection.subscribe(to: namespace.forOwnerWildcard)
    }

    /// Messages on `MessageSpace.{guid}.call.>`; survives swaps.
    public func subscribeToCalls() throws(NatsConnectionError) -> NatsManagedSubscription {
        try connection.subscribe(to: namespace.callWildcard)
    }

    /// Publishes the owner's profile on `MessageSpace.{guid}.ownerProfile`.
    public func publishOwnerProfile(_ payload: [UInt8], messageID: String? = nil) throws(NatsConnectionError) {
        try connection.publish(payload, to: namespace.ownerProfile, headers: Self.headers(messageID))
    }

    /// Publishes to `MessageSpace.{guid}.forOwner.{topic}` (`topic`: one or more plain tokens, no wildcards).
    public func publish(forOwner topic: String, _ payload: [UInt8], messageID: String? = nil)
        throws(NatsConnectionError)
    {
        try Self.validate(topic)
        try connection.publish(payload, to: namespace.forOwner(topic), headers: Self.headers(messageID))
    }

    /// Publishes to `MessageSpace.{guid}.call.{topic}` (`topic`: one or more plain tokens, no wildcards).
    public func publish(call topic: String, _ payload: [UInt8], messageID: String? = nil) throws(NatsConnectionError) {
        try Self.validate(topic)
        try connection.publish(payload, to: namespace.call(topic), headers: Self.headers(messageID))
    }

    static func headers(_ messageID: String?) -> NATSHeaders? {
        messageID.map { NATSHeaders([(NatsMessageDeduplicator.messageIDHeader, $0)]) }
    }

    static func validate(_ topic: String) throws(NatsConnectionError) {
        let tokens = topic.split(separator: ".", omittingEmptySubsequences: false)
        let valid =
            !tokens.isEmpty
            && tokens.allSatisfy { token in
                !token.isEmpty && token != "*" && token != ">" && token.utf8.allSatisfy { $0 > 0x20 && $0 != 0x7F }
            }
        guard valid else {
            throw NatsConnectionError(.invalidSubject, "'\(topic.prefix(64))' is not a plain subject topic.")
        }
    }
}
