// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// A vault handler as both sides know it: its id, its request and result types, and whether it is sealed-only.

/// A vault handler's contract, defined once for the app and the vault worker: the id an execute request names,
/// the request it takes and the result it answers.
///
/// The worker's handler for it conforms to the server's `VaultOperationHandler` and the SDK calls it with
/// `VaultHandlerCalling.call(_:_:)`, so the two sides cannot disagree on a member name or a type.
public protocol VaultOperation: Sendable {
    /// What the app sends.
    associatedtype Request: VaultPayload
    /// What the vault answers.
    associatedtype Result: VaultPayload

    /// The handler id execute requests name.
    static var handlerID: VaultHandlerID { get }
    /// What the handler does, for people (the `description` of its event type).
    static var summary: String { get }
    /// The request's JSON members, for people (the `request` of its event type).
    static var requestShape: String { get }
    /// The result's JSON members, for people (the `result` of its event type).
    static var resultShape: String { get }
    /// Whether the vault runs the handler only for a sealed request (docs/protocol.md §7.3): every handler that
    /// reads or writes the member's data is.
    static var isSealedOnly: Bool { get }
}

extension VaultOperation {
    /// The handler's entry in the vault's `eventTypes` catalogue.
    public static var eventType: VaultEventType {
        VaultEventType(
            handlerID: handlerID.rawValue, description: summary, request: requestShape, result: resultShape,
            sealedOnly: isSealedOnly)
    }
}
