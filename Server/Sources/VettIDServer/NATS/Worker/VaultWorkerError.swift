// Why the vault worker could not start or stopped serving.

/// Why a ``VaultWorker`` could not start, is not ready, or stopped serving.
public struct VaultWorkerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// An open set of error codes.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// ``VaultWorker/start()`` was called on a worker that was already started (a worker runs once).
        public static let alreadyStarted = Code(rawValue: "already_started")
        /// The worker was stopped before it became ready.
        public static let stopped = Code(rawValue: "stopped")
        /// The NATS connection closed for good while the worker was serving (reconnects exhausted, credentials
        /// refused, …).
        public static let connectionClosed = Code(rawValue: "connection_closed")
        /// The credentials callback has not produced a key to sign the server's nonce with.
        public static let credentialsUnavailable = Code(rawValue: "credentials_unavailable")
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "VaultWorkerError(\(code)): \(message)" }
}
