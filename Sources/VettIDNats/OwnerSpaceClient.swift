// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Logging
import NATSClient
import NIOCore
import VettIDClient
public import VettIDCore
public import VettIDCrypto
public import VettIDMessaging
import VettIDSession

/// The app's side of `OwnerSpace.{guid}`: requests to the member's vault and its answers, inside the permissions of
/// an `app` token (publish `forVault.>`, subscribe `forApp.>` and `eventTypes`).
///
/// ```swift
/// let vault = try manager.ownerSpace()
/// let status = try await vault.status()
/// let result = try await vault.executeHandler(.echo, payload: .object([("hello", .string("vault"))]))
/// for await response in try vault.subscribeToVaultResponses() { … }
/// ```
///
/// Every publish carries a `Nats-Msg-Id` header with the message id, so a copy delivered twice during a token swap
/// is recognised. Requests use NATS request/reply with the reply subject in the member's
/// `VaultNamespace.appInboxPrefix` (the general `_INBOX` is not granted to app tokens).
public struct OwnerSpaceClient: Sendable {
    /// The member's namespaces.
    public let namespace: VaultNamespace
    /// The sealed session ``executeHandler(_:payload:timeout:)`` goes through; `nil`: plaintext requests (a
    /// manager made without one, for tests and tools).
    public let sealedSession: VaultSessionChannel?
    let connection: NatsConnection
    let clock: any WallClock

    /// Creates a client over `connection` (``NatsConnectionManager/ownerSpace()`` does this).
    /// - Parameters:
    ///   - connection: the manager's connection.
    ///   - namespace: the member's namespaces.
    ///   - sealedSession: the member's sealed session; keep one per member and pass it to every client.
    ///   - clock: the plaintext requests' timestamps.
    public init(
        connection: NatsConnection, namespace: VaultNamespace, sealedSession: VaultSessionChannel? = nil,
        clock: any WallClock = SystemWallClock()
    ) {
        self.connection = connection
        self.namespace = namespace
        self.sealedSession = sealedSession
        self.clock = clock
    }

    /// Publishes `message` to `OwnerSpace.{guid}.forVault.{type}` without waiting for an answer (the vault answers
    /// on `forApp.{type}.response`; see ``subscribeToVaultResponses()``).
    /// - Throws: ``NatsConnectionError`` `not_connected`, `publish_failed`.
    public func sendToVault(_ message: VaultMessage) throws(NatsConnectionError) {
        try connection.publish(
            message.encoded(), to: namespace.forVault(message.type), headers: Self.headers(for: message))
    }

    /// Sends `message` and waits for the vault's answer to it.
    /// - Throws: ``NatsConnectionError`` `timeout`, `no_responders` (no vault listening), `not_connected`,
    ///   `invalid_response` (not a vault response, or one for another request).
    public func request(_ message: VaultMessage, timeout: Duration? = nil) async throws(NatsConnectionError)
        -> VaultResponse
    {
        let reply = try await connection.request(
            message.encoded(), to: namespace.forVault(message.type), headers: Self.headers(for: message),
            timeout: timeout)
        let response: VaultResponse
        do {
            response = try VaultResponse.decode(reply.payload.readableBytesView)
        } catch {
            throw NatsConnectionError(
                .invalidResponse, "The vault's answer could not be read (\(error.code)).", underlying: error)
        }
        if let requestID = response.requestID, requestID != message.id {
            throw NatsConnectionError(.invalidResponse, "The vault answered another request.")
        }
        return response
    }

    /// Runs `handler` (e.g. `.echo`, `.vaultInfo`, or a string literal for a handler this version does not name)
    /// with `payload` in the vault and returns its result.
    ///
    /// With a ``sealedSession`` the request and its answer are sealed end to end (see ``VaultSessionChannel``: the
    /// session is opened and renewed by itself); without one it is a plaintext `execute` request.
    /// - Throws: ``NatsConnectionError`` `vault_error` (with ``NatsConnectionError/vaultError``: `unknown_handler`,
    ///   `handler_failed`, …), the errors of ``request(_:timeout:)``, and over a sealed session those of
    ///   ``VaultSessionChannel/execute(handler:body:namespace:connection:timeout:)``.
    public func executeHandler(_ handler: VaultHandlerID, payload: JSONValue = .null, timeout: Duration? = nil)
        async throws(NatsConnectionError) -> JSONValue
    {
        let handlerID = handler.rawValue
        if let sealedSession {
            let response = try await sealedSession.execute(
                handler: handlerID, body: payload, namespace: namespace, connection: connection, timeout: timeout)
            switch response {
            case .success(_, let result):
                return result
            case .failure(_, let failure):
                let error = VaultMessageError(.init(rawValue: failure.code.rawValue), failure.message)
                throw NatsConnectionError(.vaultError, "The vault refused: \(failure.message)", vaultError: error)
            }
        }
        let response = try await request(
            .executeHandler(id: Self.makeID(), handlerID: handlerID, payload: payload, timestamp: timestamp()),
            timeout: timeout)
        switch response {
        case .handlerResult(_, _, .success(let value), _):
            return value
        case .handlerResult(_, _, .failure(let error), _), .error(_, let error, _):
            throw NatsConnectionError(.vaultError, "The vault refused: \(error.message)", vaultError: error)
        default:
            throw NatsConnectionError(
                .invalidResponse, "The vault answered an execute request with '\(response.typeName)'.")
        }
    }

    /// The vault's status.
    /// - Throws: ``NatsConnectionError`` `vault_error` and the errors of ``request(_:timeout:)``.
    public func status(timeout: Duration? = nil) async throws(NatsConnectionError) -> VaultWorkerStatus {
        let response = try await request(.statusRequest(id: Self.makeID(), timestamp: timestamp()), timeout: timeout)
        switch response {
        case .statusResponse(_, let status, _):
            return status
        case .error(_, let error, _):
            throw NatsConnectionError(.vaultError, "The vault refused: \(error.message)", vaultError: error)
        default:
            throw NatsConnectionError(
                .invalidResponse, "The vault answered a status request with '\(response.typeName)'.")
        }
    }

    /// The handlers the vault offers (asked with an `eventTypes` request).
    /// - Throws: ``NatsConnectionError`` `vault_error` and the errors of ``request(_:timeout:)``.
    public func getEventTypes(timeout: Duration? = nil) async throws(NatsConnectionError) -> [VaultEventType] {
        let response = try await request(
            .eventTypesRequest(id: Self.makeID(), timestamp: timestamp()), timeout: timeout)
        switch response {
        case .eventTypes(_, let types, _):
            return types
        case .error(_, let error, _):
            throw NatsConnectionError(.vaultError, "The vault refused: \(error.message)", vaultError: error)
        default:
            throw NatsConnectionError(
                .invalidResponse, "The vault answered an eventTypes request with '\(response.typeName)'.")
        }
    }

    /// The vault's answers on `OwnerSpace.{guid}.forApp.>`, except the request/reply inbox, decoded; survives swaps.
    /// - Throws: ``NatsConnectionError`` `subscribe_failed`.
    public func subscribeToVaultResponses() throws(NatsConnectionError) -> VaultResponseSubscription {
        VaultResponseSubscription(
            base: try connection.subscribe(to: namespace.forAppWildcard),
            inboxPrefix: namespace.appInboxPrefix + ".",
            logger: connection.configuration.logger,
            counter: UndecodableCounter()
        )
    }

    /// The handler catalogue the vault publishes on `OwnerSpace.{guid}.eventTypes`, as raw messages (decode them
    /// with `VaultResponse.decode(_:)` of `VettIDMessaging`); survives swaps.
    /// - Throws: ``NatsConnectionError`` `subscribe_failed`.
    public func subscribeToEventTypes() throws(NatsConnectionError) -> NatsManagedSubscription {
        try connection.subscribe(to: namespace.eventTypes)
    }

    static func headers(for message: VaultMessage) -> NATSHeaders {
        NATSHeaders([(NatsMessageDeduplicator.messageIDHeader, message.id)])
    }

    static func makeID() -> String { UUID().uuidString.lowercased() }

    private func timestamp() -> Int64 { clock.unixMilliseconds() }
}
