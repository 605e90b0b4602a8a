// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// What a handler knows about the request it runs for.

public import Logging
public import VettIDMessaging

/// The member and request a ``VaultHandler`` runs for.
///
/// The namespace comes from the subject nats-server delivered the request on, which the member's token
/// could only publish to in its own space: it is the authenticated member, unlike anything in the payload.
public struct VaultHandlerContext: Sendable {
    /// The member's namespace (from the request subject).
    public let namespace: VaultNamespace
    /// The request's `id`.
    public let requestID: String
    /// The RFC 7638 thumbprint of the device key that opened the sealed session the request came in; `nil` for a
    /// plaintext request (no device proved itself).
    public let deviceThumbprint: String?
    /// A logger carrying the request id and member GUID (and the handler id) as metadata. Never log payload
    /// contents.
    public var logger: Logger {
        guard let metadata else { return baseLogger }
        var logger = baseLogger
        logger.handler.metadata.merge(metadata.metadata()) { _, request in request }
        return logger
    }

    private let baseLogger: Logger
    private let metadata: VaultRequestLogContext?

    /// The member's GUID.
    public var userGUID: String { namespace.userGUID }

    /// Whether the request came sealed in a session.
    public var isSealed: Bool { deviceThumbprint != nil }

    /// A context whose ``logger`` is `logger` as given.
    public init(namespace: VaultNamespace, requestID: String, deviceThumbprint: String? = nil, logger: Logger) {
        self.namespace = namespace
        self.requestID = requestID
        self.deviceThumbprint = deviceThumbprint
        self.baseLogger = logger
        self.metadata = nil
    }

    /// The worker's context: ``logger`` is `logger` with the request's `metadata`, assembled only when a
    /// handler asks for it, so a handler that does not log costs no metadata formatting.
    init(
        namespace: VaultNamespace, requestID: String, deviceThumbprint: String?, logger: Logger,
        metadata: VaultRequestLogContext
    ) {
        self.namespace = namespace
        self.requestID = requestID
        self.deviceThumbprint = deviceThumbprint
        self.baseLogger = logger
        self.metadata = metadata
    }
}
