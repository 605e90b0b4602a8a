// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The vault worker's logic without NATS: one request in, the messages to publish out.

import Foundation
public import Logging
public import VettIDCore
import VettIDCrypto
public import VettIDMessaging

/// Turns one request delivered on `OwnerSpace.{guid}.forVault.{type}` into the messages to publish.
///
/// The rules, in order:
/// 1. The subject must parse with `VaultNamespace.parseRequestSubject(_:)`; otherwise the request is dropped
///    (logged, nothing published: there is no member space to answer in).
/// 2. The answer goes to the reply subject only when it lies inside the same member's
///    `OwnerSpace.{guid}.forApp.` (`VaultNamespace.isReplySubject(_:)`); any other reply subject (another
///    member's space, `_INBOX.…`, wildcards) is never published to: the answer goes to the member's own
///    `OwnerSpace.{guid}.forApp.{type}.response` and a warning is logged.
/// 3. A body over ``Configuration/maxPayloadBytes`` is answered `payload_too_large` without being parsed.
/// 4. The body must decode as a `VaultMessage` (else `malformed_message`, `invalid_message` or
///    `unknown_message_type`) whose `type` equals the subject's type (else `type_mismatch`).
/// 5. `execute` runs the registry's handler (`unknown_handler`, `handler_failed`); `status` asks
///    ``StatusLookup`` (`vault_unavailable` when it fails); `eventTypes` lists the registry and is published
///    both as the answer and on `OwnerSpace.{guid}.eventTypes`.
///
/// Payload contents are never logged: only subjects' members, request ids, types, handler ids and codes.
public struct VaultRequestProcessor: Sendable {
    /// A member's vault status by GUID: the vault state (`active`, `enrolled`, …) and the transaction keys
    /// remaining on the member's current credential, if any.
    public typealias StatusLookup =
        @Sendable (_ userGUID: String) async throws -> (vaultStatus: String, transactionKeysRemaining: Int?)

    /// Limits and identity of the processor.
    public struct Configuration: Sendable {
        /// The largest request body accepted, in bytes (default 64 KiB).
        public var maxPayloadBytes: Int
        /// The worker instance named in status answers.
        public var workerID: String

        public init(maxPayloadBytes: Int = 64 * 1024, workerID: String) {
            self.maxPayloadBytes = maxPayloadBytes
            self.workerID = workerID
        }
    }

    /// What processing a request produced.
    public struct Outcome: Sendable {
        /// The answer, or `nil` when the request was dropped (its subject is not a request subject).
        public let response: VaultResponse?
        /// What to publish, in order (empty when dropped).
        public let publications: [VaultPublication]

        /// A dropped request: nothing to publish.
        static let dropped = Outcome(response: nil, publications: [])
    }

    public let configuration: Configuration
    public let registry: VaultHandlerRegistry
    private let status: StatusLookup
    private let clock: any WallClock
    private let metrics: ServerMetrics?

    /// - Parameters:
    ///   - configuration: Limits and the worker id.
    ///   - registry: The handlers `execute` requests may name.
    ///   - status: Looks up a member's vault status for `status` requests.
    ///   - clock: The clock of response timestamps.
    ///   - metrics: Where answered requests are counted by type and outcome.
    public init(
        configuration: Configuration, registry: VaultHandlerRegistry, status: @escaping StatusLookup,
        clock: any WallClock = SystemWallClock(), metrics: ServerMetrics? = nil
    ) {
        self.configuration = configuration
        self.registry = registry
        self.status = status
        self.clock = clock
        self.metrics = metrics
    }

    /// Processes one request.
    ///
    /// Never throws: every failure becomes an error answer (or a drop when there is nowhere safe to answer).
    /// - Parameters:
    ///   - subject: The subject the request was delivered on.
    ///   - replyTo: The request's reply subject, if any.
    ///   - payload: The request body.
    ///   - logger: Where to log; payload contents are never logged.
    public func process<Payload: Collection<UInt8> & Sendable>(
        subject: String, replyTo: String?, payload: Payload, logger: Logger
    ) async -> Outcome {
        guard let (namespace, typeToken) = VaultNamespace.parseRequestSubject(subject) else {
            logger.warning(
                "dropped a message on a subject that is not a vault request subject",
                metadata: ["subject": "\(subject.prefix(200))"])
            return .dropped
        }
        // Logged with every message below; built only when a message is logged (setting a logger's metadata
        // costs a formatting pass per request in swift-log's stream handler).
        var about = VaultRequestLogContext(member: namespace.userGUID, type: typeToken)
        let answerSubject = Self.answerSubject(
            namespace: namespace, typeToken: typeToken, replyTo: replyTo, logger: logger, about: about)

        func answer(_ response: VaultResponse, alsoOn extra: String? = nil) -> Outcome {
            metrics?.workerRequest(
                type: VaultMessageType(rawValue: typeToken)?.rawValue ?? "unknown", outcome: response.outcomeLabel)
            let bytes = response.encoded()
            var publications = [VaultPublication(subject: answerSubject, payload: bytes)]
            if let extra { publications.append(VaultPublication(subject: extra, payload: bytes)) }
            return Outcome(response: response, publications: publications)
        }
        func refuse(_ error: VaultMessageError, requestID: String?) -> Outcome {
            logger.notice(
                "refused a vault request",
                metadata: about.metadata(["code": "\(error.code)", "request_id": "\(requestID?.prefix(128) ?? "none")"])
            )
            return answer(.error(requestID: requestID, error, timestamp: now()))
        }

        guard payload.count <= configuration.maxPayloadBytes else {
            return refuse(
                VaultMessageError(
                    .payloadTooLarge, "the request is larger than \(configuration.maxPayloadBytes) bytes"),
                requestID: nil)
        }
        let message: VaultMessage
        do {
            message = try VaultMessage.decode(payload)
        } catch {
            return refuse(error, requestID: VaultMessage.requestID(in: payload))
        }
        guard message.type.rawValue == typeToken else {
            return refuse(
                VaultMessageError(.typeMismatch, "the body's type '\(message.type.rawValue)' is not the subject's"),
                requestID: message.id)
        }
        about.requestID = message.id

        switch message {
        case .executeHandler(let id, let handlerID, let payload, _):
            let result = await registry.run(
                handlerID, payload: payload, namespace: namespace, requestID: id, deviceThumbprint: nil,
                logger: logger, about: about)
            return answer(.handlerResult(requestID: id, handlerID: handlerID, result: result, timestamp: now()))
        case .statusRequest(let id, _):
            let found: (vaultStatus: String, transactionKeysRemaining: Int?)
            do {
                found = try await status(namespace.userGUID)
            } catch {
                logger.error("vault status lookup failed", metadata: about.metadata(["error": "\(type(of: error))"]))
                return answer(
                    .error(
                        requestID: id, VaultMessageError(.unavailable, "the vault status is unavailable"),
                        timestamp: now()))
            }
            let workerStatus = VaultWorkerStatus(
                vaultStatus: found.vaultStatus, userGUID: namespace.userGUID,
                transactionKeysRemaining: found.transactionKeysRemaining, workerID: configuration.workerID,
                handlers: registry.ids)
            return answer(.statusResponse(requestID: id, status: workerStatus, timestamp: now()))
        case .eventTypesRequest(let id, _):
            return answer(
                .eventTypes(requestID: id, types: registry.eventTypes, timestamp: now()), alsoOn: namespace.eventTypes)
        }
    }

    /// The reply subject when it is inside the member's `forApp.` space, else the member's response subject.
    static func answerSubject(
        namespace: VaultNamespace, typeToken: String, replyTo: String?, logger: Logger, about: VaultRequestLogContext
    ) -> String {
        guard let replyTo else { return namespace.response(to: typeToken) }
        if namespace.isReplySubject(replyTo) { return replyTo }
        logger.warning(
            "refused a reply subject outside the member's forApp space; answering on its response subject",
            metadata: about.metadata(["reply_to": "\(replyTo.prefix(200))"]))
        return namespace.response(to: typeToken)
    }

    private func now() -> Int64 {
        clock.unixMilliseconds()
    }
}

extension VaultResponse {
    /// `ok`, or the error code the answer carries (a bounded set): the metrics label of an answered request.
    var outcomeLabel: String {
        switch self {
        case .handlerResult(_, _, .failure(let error), _), .error(_, let error, _): return error.code.rawValue
        case .handlerResult, .statusResponse, .eventTypes: return "ok"
        }
    }
}
