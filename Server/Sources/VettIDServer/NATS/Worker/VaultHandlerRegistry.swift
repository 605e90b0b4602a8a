// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The handlers a vault worker offers, fixed when the worker is built.

import Foundation
import Logging
public import VettIDCore
import VettIDCrypto
public import VettIDMessaging

/// The handlers a vault worker runs, by id; immutable once built.
///
/// The order handlers are given in is the order of the event types the worker publishes. A server's workers run
/// ``serverHandlers``, made by ``server(_:)``.
public struct VaultHandlerRegistry: Sendable {
    private let ordered: [any VaultHandler]
    private let byID: [String: any VaultHandler]
    /// Where every handler call the registry runs (plaintext or sealed) is recorded.
    public let accessLog: VaultAccessLog?
    private let clock: any WallClock

    /// Builds a registry.
    ///
    /// - Throws: ``VaultWorkerError`` `duplicate_handler_id` when two handlers share an id,
    ///   `invalid_handler_id` when an id is empty or longer than 128 bytes (an execute request could never
    ///   name it).
    public init(
        _ handlers: [any VaultHandler], accessLog: VaultAccessLog? = nil, clock: any WallClock = SystemWallClock()
    ) throws(VaultWorkerError) {
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
        self.accessLog = accessLog
        self.clock = clock
    }

    /// The handler with `id`, if registered.
    public func handler(for id: String) -> (any VaultHandler)? { byID[id] }

    /// The handler ids, in registration order.
    public var ids: [String] { ordered.map(\.id) }

    /// The catalogue published for `eventTypes` requests, in registration order.
    public var eventTypes: [VaultEventType] {
        ordered.map(\.eventType)
    }

    /// Runs the handler `handlerID` names for one request, plaintext or sealed, and records the call in
    /// ``accessLog``: `unknown_handler` when none; `sealed_session_required` for a sealed-only handler asked in
    /// plaintext (no `deviceThumbprint`); the handler's `VaultMessageError` as it is; `handler_failed` for any other
    /// error (never its text, which may carry anything).
    func run(
        _ handlerID: String, payload: JSONValue, namespace: VaultNamespace, requestID: String,
        deviceThumbprint: String?, logger: Logger, about: VaultRequestLogContext
    ) async -> Result<JSONValue, VaultMessageError> {
        var about = about
        about.handlerID = handlerID
        let result = await invoke(
            handlerID, payload: payload, namespace: namespace, requestID: requestID,
            deviceThumbprint: deviceThumbprint, logger: logger, about: about)
        if let accessLog {
            let outcome: String
            switch result {
            case .success: outcome = "ok"
            case .failure(let error): outcome = error.code.rawValue
            }
            accessLog.record(
                VaultAccessEntry(
                    memberID: namespace.userGUID, deviceThumbprint: deviceThumbprint,
                    handlerID: String(handlerID.prefix(128)), outcome: outcome, occurredAt: clock.now()))
        }
        return result
    }

    private func invoke(
        _ handlerID: String, payload: JSONValue, namespace: VaultNamespace, requestID: String,
        deviceThumbprint: String?, logger: Logger, about: VaultRequestLogContext
    ) async -> Result<JSONValue, VaultMessageError> {
        guard let handler = handler(for: handlerID) else {
            logger.notice("a request names an unknown handler", metadata: about.metadata())
            return .failure(VaultMessageError(.unknownHandler, "no handler '\(handlerID)'"))
        }
        guard deviceThumbprint != nil || !handler.isSealedOnly else {
            logger.notice("refused a plaintext request for a sealed-only handler", metadata: about.metadata())
            return .failure(
                VaultMessageError(
                    .sealedSessionRequired, "handler '\(handlerID)' answers only requests sealed in a session"))
        }
        let context = VaultHandlerContext(
            namespace: namespace, requestID: requestID, deviceThumbprint: deviceThumbprint, logger: logger,
            metadata: about)
        do {
            return .success(try await handler.handle(payload, context: context))
        } catch let error as VaultMessageError {
            logger.notice("handler refused the request", metadata: about.metadata(["code": "\(error.code)"]))
            return .failure(error)
        } catch {
            logger.error("handler failed", metadata: about.metadata(["error": "\(type(of: error))"]))
            return .failure(VaultMessageError(.handlerFailed, "handler '\(handlerID)' failed"))
        }
    }
}
