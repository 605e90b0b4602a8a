// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// Finds the literals of a request body that the generated decoders cannot report by name, without building a
/// document: a JSON `null`, and an integer too large for any integer field.
///
/// The API's request schemas have no nullable field: an optional field is left out, never sent as `null`
/// (docs/protocol.md §1). The generated decoders would read `null` as "absent", so ``RequestBodyMiddleware``
/// refuses it first, naming the member whose value it is. An integer outside the 64-bit range makes Foundation's
/// decoder report the whole body as "not valid JSON", without the field; the scan names it instead. The scan is one
/// pass over the bytes and allocates only the name of the member it reports.
enum JSONLiteralScanner {
    /// The result of a scan.
    enum Finding: Equatable {
        /// Nothing to report.
        case none
        /// A `null` that is the value of `member` (or an element of the array that is its value).
        case null(member: String?)
        /// An integer literal (no fraction, no exponent) outside `Int64`, the value of `member`.
        case integerOutOfRange(member: String?)
    }

    /// Scans `bytes` for the literal `null` and out-of-range integers outside strings (expected to be JSON;
    /// anything malformed is left to the decoder). The first finding is reported.
    static func scan(_ bytes: some Collection<UInt8>) -> Finding {
        var inString = false
        var escaped = false
        var lastStringBytes: [UInt8] = []
        var currentString: [UInt8] = []
        var lastMember: [UInt8]? = nil
        var awaitingColon = false
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            if inString {
                if escaped {
                    escaped = false
                    currentString.append(byte)
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                    currentString.append(byte)
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    lastStringBytes = currentString
                    awaitingColon = true
                } else if currentString.count < 128 {
                    currentString.append(byte)
                }
            } else {
                switch byte {
                case UInt8(ascii: "\""):
                    inString = true
                    currentString = []
                case UInt8(ascii: ":"):
                    if awaitingColon { lastMember = lastStringBytes }
                    awaitingColon = false
                case UInt8(ascii: "n") where bytes[index...].starts(with: "null".utf8):
                    return .null(member: lastMember.map { String(decoding: $0, as: UTF8.self) })
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    let end = bytes[index...].firstIndex { !Self.isNumberByte($0) } ?? bytes.endIndex
                    if Self.isIntegerOutOfRange(bytes[index..<end]) {
                        return .integerOutOfRange(member: lastMember.map { String(decoding: $0, as: UTF8.self) })
                    }
                    awaitingColon = false
                    index = end
                    continue
                case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                    break
                default:
                    awaitingColon = false
                }
            }
            index = bytes.index(after: index)
        }
        return .none
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
            UInt8(ascii: "e"), UInt8(ascii: "E"):
            true
        default: false
        }
    }

    /// Whether `literal` is an integer (an optional `-` and digits only) that `Int64` cannot hold.
    private static func isIntegerOutOfRange(_ literal: some Collection<UInt8>) -> Bool {
        let digits = literal.first == UInt8(ascii: "-") ? literal.dropFirst() : literal[...]
        guard !digits.isEmpty, digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            return false
        }
        return Int64(String(decoding: literal, as: UTF8.self)) == nil
    }
}
