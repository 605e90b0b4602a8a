// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// A handler the vault worker runs for `execute` requests.

public import VettIDCrypto

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
    /// Runs the handler for one request.
    func handle(_ payload: JSONValue, context: VaultHandlerContext) async throws -> JSONValue
}
