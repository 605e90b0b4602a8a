// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

extension QRCode {
    /// The symbol as terminal text, two module rows per line with half blocks, dark on a light background, with
    /// a quiet zone of `margin` modules. Scans from a terminal with a dark-on-light or light-on-dark theme when
    /// `inverted` matches the theme (the default suits dark terminals: light modules are drawn).
    public func terminalText(margin: Int = 2, inverted: Bool = true) -> String {
        var lines: [String] = []
        let range = -margin..<(width + margin)
        for row in stride(from: -margin, to: width + margin, by: 2) {
            var line = ""
            for column in range {
                // "Ink" is what the terminal draws in its foreground colour.
                let top = isDark(row: row, column: column) != inverted
                let bottom = isDark(row: row + 1, column: column) != inverted
                switch (top, bottom) {
                case (true, true): line += "█"
                case (true, false): line += "▀"
                case (false, true): line += "▄"
                case (false, false): line += " "
                }
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
