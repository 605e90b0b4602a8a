// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// A handler the vault worker runs for `execute` requests.

public import VettIDCrypto
public import VettIDMessaging

/// Something the vault can do for a member: an `execute` request names it by ``id``.
///
/// A handler receives the request's JSON payload and returns a JSON result. It may throw a
/// `VaultMessageError`; its code and message are sent to the app as they are, so its message must be safe to
/// show. Any other error is answered with `handler_failed` and a generic message, and never reaches the app.
///
/// Handlers run concurrently for different requests and members: they must be `Sendable` and keep no
/// per-request state. They must never log payload contents (they may carry secrets).
public protocol VaultHandler: Sendable {
    /// The id execute requests name (`handler_id`); 1 to 128 bytes, unique in a ``VaultHandlerRegistry``.
    var id: String { get }
    /// What the handler does, for people; listed in the event types.
    var description: String { get }
    /// The handler's entry in the `eventTypes` catalogue (default: its id and description; an operation handler's
    /// is its operation's, with payload shapes and the sealed-only flag).
    var eventType: VaultEventType { get }
    /// Runs the handler for one request.
    func handle(_ payload: JSONValue, context: VaultHandlerContext) async throws -> JSONValue
}

extension VaultHandler {
    /// An entry with the handler's id and description only.
    public var eventType: VaultEventType { VaultEventType(handlerID: id, description: description) }
    /// Whether the worker runs it only for sealed requests (plaintext ones are answered `sealed_session_required`).
    public var isSealedOnly: Bool { eventType.sealedOnly }
}

/// A handler for a `VaultOperation`: the operation (defined once in VettIDMessaging, for the app and the vault)
/// gives its id, description, payload shapes and whether it is sealed-only; the handler only answers a typed
/// request. A request that is not the operation's `Request` is answered `invalid_payload`.
public protocol VaultOperationHandler: VaultHandler {
    /// The operation this handler answers.
    associatedtype Operation: VaultOperation
    /// Answers one request.
    func respond(to request: Operation.Request, context: VaultHandlerContext) async throws -> Operation.Result
}

extension VaultOperationHandler {
    public var id: String { Operation.handlerID.rawValue }
    public var description: String { Operation.summary }
    public var eventType: VaultEventType { Operation.eventType }

    public func handle(_ payload: JSONValue, context: VaultHandlerContext) async throws -> JSONValue {
        let request = try Operation.Request(vaultPayload: payload)
        return try await respond(to: request, context: context).vaultPayload()
    }
}
