// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Logging
import Testing
import VettIDClient

/// The decisions behind the OSLog handler (which records reach Console.app, at which type, as which text),
/// tested where the handler itself cannot run.
@Suite struct UnifiedLogPolicyTests {
    @Test func levelsMapToTheUnifiedLoggingTypes() {
        let expected: [(Logger.Level, UnifiedLogPolicy.EntryType)] = [
            (.trace, .debug), (.debug, .debug), (.info, .info), (.notice, .default), (.warning, .default),
            (.error, .error), (.critical, .fault),
        ]
        for (level, type) in expected {
            #expect(UnifiedLogPolicy.entryType(for: level) == type, "\(level)")
        }
    }

    @Test func theThresholdKeepsLowerLevelsOutAndOffKeepsEverythingOut() {
        let warning = UnifiedLogPolicy(threshold: .minimum(.warning))
        #expect(warning.entry(level: .info, message: "skipped", metadata: [:]) == nil)
        #expect(warning.entry(level: .warning, message: "kept", metadata: [:])?.type == .default)
        #expect(warning.handlerLevel == .warning)

        let off = UnifiedLogPolicy(threshold: .off)
        for level in Logger.Level.allCases {
            #expect(off.entry(level: level, message: "never", metadata: [:]) == nil, "\(level)")
        }
        #expect(UnifiedLogPolicy().threshold == .minimum(.info), "the default writes info and above")
    }

    @Test func theTextIsTheMessageAndTheMetadataSortedByKey() throws {
        let entry = try #require(
            UnifiedLogPolicy().entry(
                level: .error, message: "refresh failed",
                metadata: ["status": "401", "attempt": "2", "code": "invalid_token"]))
        #expect(entry.type == .error)
        #expect(entry.message == "refresh failed")
        #expect(entry.metadata == "attempt=2 code=invalid_token status=401")
        #expect(UnifiedLogPolicy().entry(level: .info, message: "plain", metadata: [:])?.metadata == "")
    }

    @Test func thePlatformLoggerHonoursTheThreshold() {
        let silent = PlatformLogger.make(subsystem: "com.example.app", policy: UnifiedLogPolicy(threshold: .off))
        #if canImport(os)
            #expect(silent.handler is OSLogHandler, "Apple platforms write to the unified log")
        #else
            #expect(silent.handler is SwiftLogNoOpLogHandler, "off the unified log, off is a no-op handler")
        #endif
        let warning = PlatformLogger.make(
            subsystem: "com.example.app", policy: UnifiedLogPolicy(threshold: .minimum(.warning)))
        #expect(warning.logLevel == .warning)
    }
}
