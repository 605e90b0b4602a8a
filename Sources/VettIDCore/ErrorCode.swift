// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// A stable, machine-readable error code from an open set.
///
/// A code is a string wrapper whose known values are static members, so a new value (from a newer server or
/// library) arrives as an unknown code instead of failing to decode or breaking a `switch`. Conforming types write
/// only their storage and constants:
///
/// ```swift
/// public struct Code: ErrorCode {
///     public let rawValue: String
///     public init(rawValue: String) { self.rawValue = rawValue }
///     public static let timeout = Code(rawValue: "timeout")
/// }
/// ```
///
/// The description is the raw value, and `catch SomeError.Code.timeout` matches any ``CodedError`` whose code is
/// that value (the `~=` below).
public protocol ErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible where RawValue == String {
    /// Creates a code from its stable name.
    init(rawValue: String)
}

extension ErrorCode {
    /// The stable name of the code.
    public var description: String { rawValue }

    /// Lets `catch SomeError.Code.x` match an error whose code is `x`.
    public static func ~= (pattern: Self, error: any Error) -> Bool {
        guard let coded = error as? any CodedError else { return false }
        return coded.hasCode(pattern)
    }
}
