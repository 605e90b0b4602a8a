// A minimal CBOR (RFC 8949) data model: the subset App Attest objects use.

/// A decoded CBOR data item. Floats, tags and indefinite lengths are not supported.
indirect enum CBORValue: Sendable, Equatable {
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
    subscript(textKey key: String) -> CBORValue? {
        guard case .map(let entries) = self else { return nil }
        return entries.first { $0.key == .text(key) }?.value
    }

    var bytesValue: [UInt8]? {
        if case .bytes(let value) = self { return value }
        return nil
    }

    var textValue: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    var arrayValue: [CBORValue]? {
        if case .array(let value) = self { return value }
        return nil
    }
}

/// One key/value pair of a CBOR map.
struct CBORMapEntry: Sendable, Equatable {
    var key: CBORValue
    var value: CBORValue
}
