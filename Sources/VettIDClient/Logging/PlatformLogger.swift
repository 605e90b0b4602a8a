// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Logging

/// The SDK's default logger: on Apple platforms an `OSLogHandler` (Console.app, `log stream`), elsewhere the
/// process's swift-log set-up; both under one ``UnifiedLogPolicy`` threshold, `off` included.
public enum PlatformLogger {
    /// A logger for `subsystem` (usually the app's bundle id) and `category`.
    /// - Parameters:
    ///   - subsystem: The unified-logging subsystem, usually the app's bundle id (used on Apple platforms).
    ///   - category: The unified-logging category and the logger's label.
    ///   - policy: Default `info` and above; `UnifiedLogPolicy(threshold: .off)` silences the SDK.
    public static func make(
        subsystem: String, category: String = "dev.vettid", policy: UnifiedLogPolicy = UnifiedLogPolicy()
    ) -> Logger {
        #if canImport(os)
            if #available(iOS 14.0, macOS 11.0, *) {
                return Logger(label: category) { _ in
                    OSLogHandler(subsystem: subsystem, category: category, policy: policy)
                }
            }
        #endif
        return portable(category: category, policy: policy)
    }

    /// Where there is no unified logging: nothing for `off`, otherwise the process's `LoggingSystem` handler at the
    /// threshold's level.
    static func portable(category: String, policy: UnifiedLogPolicy) -> Logger {
        switch policy.threshold {
        case .off:
            return Logger(label: category) { _ in SwiftLogNoOpLogHandler() }
        case .minimum(let level):
            var logger = Logger(label: category)
            logger.logLevel = level
            return logger
        }
    }
}
