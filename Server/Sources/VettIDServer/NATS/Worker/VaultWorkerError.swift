// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

// Why the vault worker could not start or stopped serving, or its handler registry could not be built.

/// Why a ``VaultWorker`` could not start, is not ready, or stopped serving, or why a ``VaultHandlerRegistry``
/// refused its handlers.
public struct VaultWorkerError: CodedError, Hashable {
    /// An open set of error codes.
    public struct Code: ErrorCode {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// ``VaultWorker/start()`` was called on a worker that was already started (a worker runs once).
        public static let alreadyStarted = Code(rawValue: "already_started")
        /// The worker was stopped before it became ready.
        public static let stopped = Code(rawValue: "stopped")
        /// The NATS connection closed for good while the worker was serving (reconnects exhausted, credentials
        /// refused, …).
        public static let connectionClosed = Code(rawValue: "connection_closed")
        /// Two handlers of a registry have the same id.
        public static let duplicateHandlerID = Code(rawValue: "duplicate_handler_id")
        /// A handler id is empty or longer than 128 bytes.
        public static let invalidHandlerID = Code(rawValue: "invalid_handler_id")
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
}
