// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The header block of an HMSG frame, parsed into NATSHeaders.

import NIOCore

extension NATSProtocolDecoder {
    /// Parses a header block: `NATS/1.0[ status[ description]]\r\n(Name: Value\r\n)*\r\n`.
    static func parseHeaders(_ block: ByteBuffer) throws(NATSProtocolError) -> NATSHeaders {
        let text = String(buffer: block)
        var lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)[...]
        guard let first = lines.popFirst(), first.hasPrefix("NATS/1.0") else {
            throw NATSProtocolError(.invalidHeaders, "header block must start with NATS/1.0")
        }
        var headers = NATSHeaders()
        let statusPart = first.dropFirst("NATS/1.0".count).drop(while: { $0 == " " })
        if !statusPart.isEmpty {
            let code = statusPart.prefix(while: { $0 != " " })
            guard code.count == 3, let status = Int(code) else {
                throw NATSProtocolError(.invalidHeaders, "status must be three digits")
            }
            headers.status = status
            let description = statusPart.dropFirst(3).drop(while: { $0 == " " })
            if !description.isEmpty { headers.statusDescription = String(description) }
        }
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else {
                throw NATSProtocolError(.invalidHeaders, "header line without a colon")
            }
            let name = line[..<colon]
            guard !name.isEmpty, !name.contains(" ") else {
                throw NATSProtocolError(.invalidHeaders, "invalid header name")
            }
            let value = line[line.index(after: colon)...].drop(while: { $0 == " " || $0 == "\t" })
            headers.append(name: String(name), value: String(value))
        }
        return headers
    }
}
