// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// Finds a JSON `null` literal in a request body without building a document.
///
/// The API's request schemas have no nullable field: an optional field is left out, never sent as `null`
/// (docs/protocol.md §1). The generated decoders would read `null` as "absent", so ``RequestBodyMiddleware``
/// refuses it first, naming the member whose value it is. The scan is one pass over the bytes and allocates
/// only the name of the member it reports.
enum JSONNullScanner {
    /// The result of a scan.
    enum Finding: Equatable {
        /// No `null` outside string literals.
        case none
        /// A `null` that is the value of `member` (or an element of the array that is its value).
        case null(member: String?)
    }

    /// Scans `bytes` for the literal `null` outside strings (expected to be JSON; anything malformed is left to
    /// the decoder).
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
}
