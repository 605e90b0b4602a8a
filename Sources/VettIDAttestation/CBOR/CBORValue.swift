// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// A minimal CBOR (RFC 8949) data model: the subset App Attest objects use.

/// A decoded CBOR data item. Floats, tags and indefinite lengths are not supported.
package indirect enum CBORValue: Sendable, Equatable {
    case unsigned(UInt64)
    /// A negative integer `-1 - n`, stored as `n`.
    case negative(UInt64)
    case bytes([UInt8])
    case text(String)
    case array([CBORValue])
    /// Map entries in encoded order.
    case map([CBORMapEntry])
    case bool(Bool)
    case null

    /// The value for a text key, when this is a map.
    package subscript(textKey key: String) -> CBORValue? {
        guard case .map(let entries) = self else { return nil }
        return entries.first { $0.key == .text(key) }?.value
    }

    package var bytesValue: [UInt8]? {
        if case .bytes(let value) = self { return value }
        return nil
    }

    package var textValue: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    package var arrayValue: [CBORValue]? {
        if case .array(let value) = self { return value }
        return nil
    }
}

/// One key/value pair of a CBOR map.
package struct CBORMapEntry: Sendable, Equatable {
    package var key: CBORValue
    package var value: CBORValue

    package init(key: CBORValue, value: CBORValue) {
        self.key = key
        self.value = value
    }
}
