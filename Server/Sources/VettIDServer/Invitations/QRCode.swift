// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import CQREncode

/// A QR code symbol: a square of dark and light modules, made by libqrencode.
public struct QRCode: Sendable, Equatable {
    /// Modules per side.
    public let width: Int
    /// Row-major; `true` is a dark module.
    public let modules: [Bool]

    /// Why a payload could not be encoded.
    public struct EncodingFailure: Error, CustomStringConvertible {
        public var description: String { "the payload is too long or not encodable as a QR code" }
    }

    /// Encodes `text` as 8-bit data at error-correction level M.
    public init(encoding text: String) throws {
        guard let code = QRcode_encodeString8bit(text, 0, QR_ECLEVEL_M) else { throw EncodingFailure() }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        // Bit 0 of each byte is the module colour (1 = dark); the other bits describe the module's role.
        self.width = width
        self.modules = (0..<(width * width)).map { code.pointee.data[$0] & 1 == 1 }
    }

    public init(width: Int, modules: [Bool]) {
        precondition(modules.count == width * width, "a QR code is square")
        self.width = width
        self.modules = modules
    }

    /// Whether the module at `row`, `column` is dark; outside the symbol (the quiet zone) is light.
    public func isDark(row: Int, column: Int) -> Bool {
        guard (0..<width).contains(row), (0..<width).contains(column) else { return false }
        return modules[row * width + column]
    }
}
