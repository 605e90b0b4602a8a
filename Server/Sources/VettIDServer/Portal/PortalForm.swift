// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// An `application/x-www-form-urlencoded` body, as HTML forms post it (WHATWG URL, "application/x-www-form-urlencoded
/// parsing"): `name=value` pairs joined by `&`, `+` for a space, percent-escapes for the rest.
///
/// A pure value: parsing refuses malformed escapes and invalid UTF-8 instead of guessing, and bounds the number of
/// fields, so a hostile body cannot make the portal allocate without limit.
struct PortalForm: Sendable, Equatable {
    /// Why a body is not a form.
    struct Malformed: Error, Equatable {
        let reason: String
    }

    /// The most fields a portal form may have.
    static let maximumFields = 32

    private(set) var fields: [(name: String, value: String)]

    static func == (lhs: PortalForm, rhs: PortalForm) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }

    /// An empty form (a `GET` has none).
    init() { fields = [] }

    /// Parses `body`.
    init(parsing body: some Collection<UInt8>) throws(Malformed) {
        fields = []
        for pair in body.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            guard fields.count < Self.maximumFields else { throw Malformed(reason: "too many fields") }
            if let equals = pair.firstIndex(of: UInt8(ascii: "=")) {
                fields.append(
                    (
                        try Self.decode(pair[pair.startIndex..<equals]),
                        try Self.decode(pair[pair.index(after: equals)...])
                    ))
            } else {
                fields.append((try Self.decode(pair), ""))
            }
        }
    }

    /// The first value of `name`, if the form has it.
    subscript(name: String) -> String? { fields.first { $0.name == name }?.value }

    /// The value of `name` without surrounding white space, or `nil` when absent or blank.
    func trimmed(_ name: String) -> String? {
        guard let value = self[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else {
            return nil
        }
        return value
    }

    private static func decode(_ bytes: some Collection<UInt8>) throws(Malformed) -> String {
        var output = [UInt8]()
        output.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "+"):
                output.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                let high = bytes.index(after: index)
                guard high != bytes.endIndex, bytes.index(after: high) != bytes.endIndex,
                    let h = hexValue(bytes[high]), let l = hexValue(bytes[bytes.index(after: high)])
                else { throw Malformed(reason: "a percent sign is not followed by two hex digits") }
                output.append(h << 4 | l)
                index = bytes.index(after: high)
            default:
                output.append(byte)
            }
            index = bytes.index(after: index)
        }
        guard let text = String(validating: output, as: UTF8.self) else {
            throw Malformed(reason: "a field is not valid UTF-8")
        }
        return text
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
