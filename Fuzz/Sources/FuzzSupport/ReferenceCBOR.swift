// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// An independent reader for the CBOR subset VettIDAttestation documents, used as a differential oracle for
// its internal CBORReader (reached through AssertionAuthenticatorData and AppAttestVerifier).

/// A decoded CBOR item, as the reference reader sees it.
public indirect enum ReferenceCBOR: Equatable, Sendable {
    case unsigned(UInt64)
    case negative(UInt64)
    case bytes([UInt8])
    case text(String)
    case array([ReferenceCBOR])
    case map([ReferenceCBORPair])
    case bool(Bool)
    case null

    /// The value of the first entry whose key is the text `key`, when this is a map.
    public subscript(textKey key: String) -> ReferenceCBOR? {
        guard case .map(let pairs) = self else { return nil }
        return pairs.first { $0.key == .text(key) }?.value
    }

    public var bytesValue: [UInt8]? {
        if case .bytes(let value) = self { return value }
        return nil
    }

    public var textValue: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    public var arrayValue: [ReferenceCBOR]? {
        if case .array(let value) = self { return value }
        return nil
    }

    public var isMap: Bool {
        if case .map = self { return true }
        return false
    }

    /// Decodes exactly one item spanning all of `bytes` under the documented rules of VettIDAttestation's
    /// CBOR reader: definite lengths only (arguments of 0-23 inline or 1, 2, 4, 8 bytes), byte and text
    /// strings within the input, text valid UTF-8, no tags, of the simple values only false/true/null (no
    /// floats, no undefined), map keys unique (compared as values: text by `String` equality), items
    /// nested at most `maxDepth` levels below the top one, and nothing after the item.
    /// - Returns: `nil` when the bytes break any of these rules.
    public static func decodeSingle(_ bytes: [UInt8], maxDepth: Int = 16) -> ReferenceCBOR? {
        var index = 0
        guard let value = item(bytes, &index, depth: 0, maxDepth: maxDepth), index == bytes.count else { return nil }
        return value
    }

    /// Decodes one item starting at `index` under the same rules, with anything allowed after it.
    /// - Returns: The item and the index after it, or `nil`.
    public static func decodePrefix(_ bytes: [UInt8], at index: Int, maxDepth: Int = 16) -> (ReferenceCBOR, Int)? {
        var index = index
        guard let value = item(bytes, &index, depth: 0, maxDepth: maxDepth) else { return nil }
        return (value, index)
    }

    private static func item(_ bytes: [UInt8], _ index: inout Int, depth: Int, maxDepth: Int) -> ReferenceCBOR? {
        guard depth <= maxDepth, index < bytes.count else { return nil }
        let initial = bytes[index]
        index += 1
        let major = initial >> 5
        let info = initial & 0x1F
        if major == 7 {
            switch info {
            case 20: return .bool(false)
            case 21: return .bool(true)
            case 22: return .null
            default: return nil
            }
        }
        if major == 6 { return nil }
        // The argument.
        let argument: UInt64
        switch info {
        case 0...23: argument = UInt64(info)
        case 24...27:
            let width = 1 << Int(info - 24)
            guard bytes.count - index >= width else { return nil }
            var value: UInt64 = 0
            for offset in 0..<width { value = value << 8 | UInt64(bytes[index + offset]) }
            index += width
            argument = value
        default: return nil
        }
        switch major {
        case 0: return .unsigned(argument)
        case 1: return .negative(argument)
        case 2, 3:
            guard argument <= UInt64(bytes.count - index) else { return nil }
            let content = Array(bytes[index..<(index + Int(argument))])
            index += Int(argument)
            if major == 2 { return .bytes(content) }
            guard let text = String(validating: content, as: UTF8.self) else { return nil }
            return .text(text)
        case 4:
            var items: [ReferenceCBOR] = []
            var remaining = argument
            while remaining > 0 {
                guard let element = item(bytes, &index, depth: depth + 1, maxDepth: maxDepth) else { return nil }
                items.append(element)
                remaining -= 1
            }
            return .array(items)
        default:  // 5: map
            var pairs: [ReferenceCBORPair] = []
            var remaining = argument
            while remaining > 0 {
                guard let key = item(bytes, &index, depth: depth + 1, maxDepth: maxDepth) else { return nil }
                if pairs.contains(where: { $0.key == key }) { return nil }
                guard let value = item(bytes, &index, depth: depth + 1, maxDepth: maxDepth) else { return nil }
                pairs.append(ReferenceCBORPair(key: key, value: value))
                remaining -= 1
            }
            return .map(pairs)
        }
    }
}

/// One entry of a ``ReferenceCBOR`` map.
public struct ReferenceCBORPair: Equatable, Sendable {
    public var key: ReferenceCBOR
    public var value: ReferenceCBOR
}

/// Minimal encoders for building CBOR objects around fuzzed bytes.
public enum CBORWriter {
    /// The head of a major type with `argument`, shortest form.
    public static func head(_ major: UInt8, _ argument: Int) -> [UInt8] {
        let type = major << 5
        switch argument {
        case 0..<24: return [type | UInt8(argument)]
        case 24...0xFF: return [type | 24, UInt8(argument)]
        case 0x100...0xFFFF: return [type | 25, UInt8(argument >> 8), UInt8(argument & 0xFF)]
        default: return [type | 26] + (0..<4).map { UInt8(truncatingIfNeeded: argument >> (24 - 8 * $0)) }
        }
    }

    public static func text(_ value: String) -> [UInt8] { head(3, value.utf8.count) + Array(value.utf8) }
    public static func bytes(_ value: [UInt8]) -> [UInt8] { head(2, value.count) + value }
}
