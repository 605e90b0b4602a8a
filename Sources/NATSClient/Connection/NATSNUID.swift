// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// Random unique tokens for inbox subjects (base62, 22 characters ≈ 131 bits).
enum NATSNUID {
    private static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)

    static func next() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<22).map { _ in alphabet[Int(generator.next(upperBound: UInt8(62)))] }
        return String(decoding: bytes, as: UTF8.self)
    }
}
