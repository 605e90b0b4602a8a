// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// An error with a stable ``ErrorCode`` and a human-readable message: the shape of every error of the SDK and
/// the server.
///
/// Conforming types store `code` and `message` and get `description` (`TypeName(code): message`) and matching by
/// code in `catch` clauses for free. The message never contains secrets (keys, tokens, passwords).
public protocol CodedError: Error, Sendable, CustomStringConvertible {
    /// The code type: an open set of stable names.
    associatedtype Code: ErrorCode

    /// What went wrong, as a stable code to match on.
    var code: Code { get }
    /// Human-readable detail for logs and developers; never contains secrets.
    var message: String { get }
}

extension CodedError {
    /// `TypeName(code): message`.
    public var description: String { "\(Self.self)(\(code.rawValue)): \(message)" }

    /// Whether this error's code is `code` (of the same code type).
    func hasCode<Other: ErrorCode>(_ code: Other) -> Bool {
        (self.code as? Other) == code
    }
}
