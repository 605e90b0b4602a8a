// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Logging
import VettIDServer

extension Logger {
    /// A logger for a CLI or server process at `level`, writing structured lines to standard error (as text, or
    /// one JSON object a line).
    static func process(label: String, level: Logger.Level, format: ServerConfiguration.LogFormat = .text) -> Logger {
        var logger = Logger(label: label) { label in
            switch format {
            case .text: StreamLogHandler.standardError(label: label)
            case .json: JSONLogHandler.standardError(label: label)
            }
        }
        logger.logLevel = level
        return logger
    }
}
