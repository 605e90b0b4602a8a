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
    /// A logger carrying the request id and member GUID as metadata. Never log payload contents.
    public let logger: Logger

    /// The member's GUID.
    public var userGUID: String { namespace.userGUID }

    public init(namespace: VaultNamespace, requestID: String, logger: Logger) {
        self.namespace = namespace
        self.requestID = requestID
        self.logger = logger
    }
}
