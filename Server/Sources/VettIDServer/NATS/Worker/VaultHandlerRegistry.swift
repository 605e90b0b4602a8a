// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The handlers a vault worker offers, fixed when the worker is built.

public import VettIDCore
public import VettIDMessaging

/// The handlers a vault worker runs, by id; immutable once built.
///
/// The order handlers are given in is the order of the event types the worker publishes. A server's workers run
/// ``serverHandlers``, made by ``server(_:)``.
public struct VaultHandlerRegistry: Sendable {
    private let ordered: [any VaultHandler]
    private let byID: [String: any VaultHandler]

    /// Builds a registry.
    ///
    /// - Throws: ``VaultWorkerError`` `duplicate_handler_id` when two handlers share an id,
    ///   `invalid_handler_id` when an id is empty or longer than 128 bytes (an execute request could never
    ///   name it).
    public init(_ handlers: [any VaultHandler]) throws(VaultWorkerError) {
        var byID: [String: any VaultHandler] = [:]
        for handler in handlers {
            guard (1...128).contains(handler.id.utf8.count) else {
                throw VaultWorkerError(.invalidHandlerID, "a handler id is 1 to 128 bytes")
            }
            guard byID.updateValue(handler, forKey: handler.id) == nil else {
                throw VaultWorkerError(.duplicateHandlerID, "handler id '\(handler.id)' is registered twice")
            }
        }
        self.ordered = handlers
        self.byID = byID
    }

    /// The handler with `id`, if registered.
    public func handler(for id: String) -> (any VaultHandler)? { byID[id] }

    /// The handler ids, in registration order.
    public var ids: [String] { ordered.map(\.id) }

    /// The catalogue published for `eventTypes` requests, in registration order.
    public var eventTypes: [VaultEventType] {
        ordered.map { VaultEventType(handlerID: $0.id, description: $0.description) }
    }
}
