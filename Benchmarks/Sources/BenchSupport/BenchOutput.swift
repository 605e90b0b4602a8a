// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Small helpers every benchmark prints and times with.

import Foundation

extension Duration {
    /// The duration in seconds, as a `Double`.
    public var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

/// Writes one line to standard output at once, unbuffered, so progress shows through a pipe (scripts, `tee`).
public func emit(_ line: String = "") {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
