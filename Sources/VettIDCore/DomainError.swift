// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// The family an error belongs to: a caseless enum that names it and scopes its codes.
///
/// A module declares its error as a domain and a type alias, and its codes as constants of
/// ``DomainErrorCode`` constrained to the domain:
///
/// ```swift
/// public enum DeviceKeyErrorDomain: ErrorDomain {}
/// public typealias DeviceKeyError = DomainError<DeviceKeyErrorDomain>
/// extension DomainErrorCode where Domain == DeviceKeyErrorDomain {
///     public static let storage = Self(rawValue: "storage")
/// }
/// ```
///
/// `DeviceKeyError.Code.storage`, `catch DeviceKeyError.Code.storage` and `error.code == .storage` then read as
/// they would for a hand-written struct, and the struct's storage, initialisers and `description` are written once.
public protocol ErrorDomain: Sendable {
    /// The name errors of this domain print as: by default the domain's type name without the `Domain` suffix.
    static var errorName: String { get }
}

extension ErrorDomain {
    /// The domain's type name without a trailing `Domain` (`DeviceKeyErrorDomain` → `DeviceKeyError`).
    public static var errorName: String {
        let name = String(describing: Self.self)
        return name.hasSuffix("Domain") ? String(name.dropLast("Domain".count)) : name
    }
}

/// A code of the errors of `Domain`: an open set of stable names, each declared as a constant in an extension
/// constrained to the domain.
public struct DomainErrorCode<Domain: ErrorDomain>: ErrorCode {
    /// The code's name, as it appears in logs and on the wire.
    public let rawValue: String
    /// Creates a code.
    public init(rawValue: String) { self.rawValue = rawValue }
}

/// An error of `Domain`: a code, a message for people (never secrets), and the error that caused it, if any.
///
/// Its `description` is `ErrorName(code): message`, and it matches its codes in `catch` clauses
/// (``CodedError``, ``ErrorCode``). Members a domain needs beyond these are extensions constrained to it.
public struct DomainError<Domain: ErrorDomain>: CodedError {
    /// The domain's codes.
    public typealias Code = DomainErrorCode<Domain>

    /// What went wrong, as a stable code to match on.
    public var code: Code
    /// Human-readable detail for logs and developers; never contains secrets.
    public var message: String
    /// The error that caused this one, if any.
    public var underlying: (any Error)?

    /// Creates an error.
    public init(_ code: Code, _ message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    /// Creates an error (the labelled spelling).
    public init(code: Code, message: String, underlying: (any Error)? = nil) {
        self.init(code, message, underlying: underlying)
    }

    /// `ErrorName(code): message`.
    public var description: String { "\(Domain.errorName)(\(code.rawValue)): \(message)" }
}

extension DomainError: Equatable, Hashable {
    /// Errors are equal when their codes and messages are (the underlying errors are not compared).
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code && lhs.message == rhs.message }

    /// Hashes the code and the message.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(message)
    }
}
