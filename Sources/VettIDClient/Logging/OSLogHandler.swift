// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

#if canImport(os)
    // Apple platforms only. Type-checked on Linux against the declarations in Tests/AppleAPIShims/os (see
    // docs/sdk.md, "Apple-only code"); never run on a device by this project's CI.

    public import Logging
    import os

    /// A swift-log handler that writes to Apple's unified logging system, so the SDK's logs reach Console.app and
    /// `log stream`. What is written, at which type and as which text is ``UnifiedLogPolicy``'s decision.
    ///
    /// The handler keeps only its subsystem and category, and makes the `os.Logger` for each entry it writes
    /// (after the policy's threshold): a `LogHandler` is `Sendable`, and Apple's documentation does not say that
    /// `os.Logger` is, so the handler does not store one.
    ///
    /// ```swift
    /// LoggingSystem.bootstrap { label in OSLogHandler(subsystem: "com.example.app", category: label) }
    /// // or, to keep the SDK silent:
    /// LoggingSystem.bootstrap { label in OSLogHandler(subsystem: "com.example.app", category: label, policy: .init(threshold: .off)) }
    /// ```
    @available(iOS 14.0, macOS 11.0, *)
    public struct OSLogHandler: LogHandler {
        /// The subsystem and category the entries are filed under.
        public let subsystem: String
        public let category: String
        /// The threshold and mapping.
        public private(set) var policy: UnifiedLogPolicy
        public var metadata: Logging.Logger.Metadata = [:]

        /// - Parameters:
        ///   - subsystem: Usually the app's bundle id.
        ///   - category: Usually the swift-log label.
        ///   - policy: Default: `info` and above.
        public init(subsystem: String, category: String, policy: UnifiedLogPolicy = UnifiedLogPolicy()) {
            self.subsystem = subsystem
            self.category = category
            self.policy = policy
        }

        /// Setting a level replaces an `off` threshold: a logger asked for a level wants that level.
        public var logLevel: Logging.Logger.Level {
            get { policy.handlerLevel }
            set { policy = UnifiedLogPolicy(threshold: .minimum(newValue)) }
        }

        public subscript(metadataKey key: String) -> Logging.Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        public func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
            guard let entry = policy.entry(level: event.level, message: event.message, metadata: merged) else { return }
            let type: OSLogType =
                switch entry.type {
                case .debug: .debug
                case .info: .info
                case .default: .default
                case .error: .error
                case .fault: .fault
                }
            let logger = os.Logger(subsystem: subsystem, category: category)
            if entry.metadata.isEmpty {
                logger.log(level: type, "\(entry.message, privacy: .public)")
            } else {
                logger.log(level: type, "\(entry.message, privacy: .public) \(entry.metadata, privacy: .private)")
            }
        }
    }
#endif
