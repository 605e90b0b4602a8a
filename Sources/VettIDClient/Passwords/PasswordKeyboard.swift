// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// A QWERTY keyboard as a slanted grid, for keyboard-pattern detection (as zxcvbn models it).

enum PasswordKeyboard {
    /// Keys a pattern may start on (zxcvbn's figure for QWERTY, shifted keys included).
    static let startingPositions = 94.0
    /// The average number of neighbours of a key.
    static let averageDegree = 4.6

    struct Key: Hashable {
        let row: Int
        let column: Int
        let shifted: Bool
    }

    private static let rows: [(unshifted: String, shifted: String, start: Int)] = [
        ("`1234567890-=", "~!@#$%^&*()_+", 0),
        ("qwertyuiop[]\\", "QWERTYUIOP{}|", 1),
        ("asdfghjkl;'", "ASDFGHJKL:\"", 1),
        ("zxcvbnm,./", "ZXCVBNM<>?", 1),
    ]

    static let keys: [Unicode.Scalar: Key] = {
        var keys: [Unicode.Scalar: Key] = [:]
        for (row, layout) in rows.enumerated() {
            for (offset, scalar) in layout.unshifted.unicodeScalars.enumerated() {
                keys[scalar] = Key(row: row, column: layout.start + offset, shifted: false)
            }
            for (offset, scalar) in layout.shifted.unicodeScalars.enumerated() {
                keys[scalar] = Key(row: row, column: layout.start + offset, shifted: true)
            }
        }
        return keys
    }()

    /// The direction (0…5) from `from` to the adjacent key `to`, or `nil` when they are not neighbours.
    static func direction(from: Unicode.Scalar, to: Unicode.Scalar) -> Int? {
        guard let a = keys[from], let b = keys[to] else { return nil }
        switch (b.row - a.row, b.column - a.column) {
        case (0, -1): return 0
        case (0, 1): return 1
        case (-1, 0): return 2
        case (-1, 1): return 3
        case (1, -1): return 4
        case (1, 0): return 5
        default: return nil
        }
    }
}
