// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// A secret's value on its way to or from the vault. No description, debug description, mirror or `dump` shows
/// its bytes (they read `<secret: 4 bytes>`), so a state, an effect or a screen that holds one can be printed in a
/// log or a failing test without leaking it.
///
/// ```swift
/// let value = SecretBytes(utf8: "2468")
/// "\(value)"        // "<secret: 4 bytes>"
/// value.utf8Text    // "2468": only where the value is meant to be shown
/// ```
public struct SecretBytes: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The bytes.
    public let data: Data

    /// Wraps bytes.
    public init(_ data: Data) {
        self.data = data
    }

    /// The UTF-8 bytes of `string`.
    public init(utf8 string: String) {
        data = Data(string.utf8)
    }

    /// The number of bytes.
    public var count: Int { data.count }

    /// The value as text when its bytes are valid UTF-8, `nil` otherwise (a binary value).
    public var utf8Text: String? {
        let text = String(decoding: data, as: UTF8.self)
        // Decoding replaces invalid sequences with U+FFFD: the bytes were text only if they come back unchanged.
        return text.utf8.elementsEqual(data) ? text : nil
    }

    /// `<secret: N bytes>`: never the bytes.
    public var description: String { "<secret: \(data.count) bytes>" }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// A mirror without children, so `dump` and reflection show nothing of the bytes.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
