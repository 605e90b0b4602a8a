// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a secret from the terminal without echo, or a line from standard input when it is not a terminal
/// (so scripts can pipe it in). Never takes secrets from arguments or the environment, where `ps` and
/// `/proc` would show them.
enum PasswordPrompt {
    struct NoInput: Error, CustomStringConvertible {
        var description: String { "no password given on standard input" }
    }

    static func read(prompt: String) throws -> String {
        let interactive = isatty(STDIN_FILENO) == 1
        if interactive {
            FileHandle.standardError.write(Data(prompt.utf8))
        }
        var original = termios()
        let canSilence = interactive && tcgetattr(STDIN_FILENO, &original) == 0
        if canSilence {
            var silent = original
            silent.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        }
        defer {
            if canSilence {
                tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
                FileHandle.standardError.write(Data("\n".utf8))
            }
        }
        guard let line = readLine(strippingNewline: true) else { throw NoInput() }
        return line
    }
}
