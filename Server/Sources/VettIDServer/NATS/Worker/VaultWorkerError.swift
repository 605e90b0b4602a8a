// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

// Why the vault worker could not start or stopped serving, or its handler registry could not be built.

/// The family of ``VaultWorkerError``.
public enum VaultWorkerErrorDomain: ErrorDomain {}

/// Why a ``VaultWorker`` could not start, is not ready, or stopped serving, or why a ``VaultHandlerRegistry``
/// refused its handlers.
public typealias VaultWorkerError = DomainError<VaultWorkerErrorDomain>

extension VaultWorkerError.Code {
    /// ``VaultWorker/start()`` was called on a worker that was already started (a worker runs once).
    public static let alreadyStarted = Self(rawValue: "already_started")
    /// The worker was stopped before it became ready.
    public static let stopped = Self(rawValue: "stopped")
    /// The NATS connection closed for good while the worker was serving (reconnects exhausted, credentials
    /// refused, …).
    public static let connectionClosed = Self(rawValue: "connection_closed")
    /// Two handlers of a registry have the same id.
    public static let duplicateHandlerID = Self(rawValue: "duplicate_handler_id")
    /// A handler id is empty or longer than 128 bytes.
    public static let invalidHandlerID = Self(rawValue: "invalid_handler_id")
}
