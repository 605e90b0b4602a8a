import Logging

extension Logger {
    /// A logger for a CLI or server process at `level`, writing structured lines to standard error.
    static func process(label: String, level: Logger.Level) -> Logger {
        var logger = Logger(label: label) { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = level
        return logger
    }
}
