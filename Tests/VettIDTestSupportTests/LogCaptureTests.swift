// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import InMemoryLogging
import Logging
import Testing
import VettIDTestSupport

@Suite struct LogCaptureTests {
    struct Failure: Error, CustomStringConvertible {
        var description: String { "failure-detail" }
    }

    @Test("every logger of a capture writes into it; lines hold level, message, all metadata and the error")
    func rendersEverything() {
        let capture = LogCapture()
        var logger = capture.logger()
        logger[metadataKey: "session"] = "logger-metadata"
        logger.trace("first", metadata: ["token": "call-metadata"])
        capture.logger(level: .info).debug("below the level")
        capture.logger(label: "other", level: .info).error("second", error: Failure())
        #expect(capture.entries.count == 2)
        #expect(capture.entries.first?.level == .trace)
        #expect(
            capture.lines == [
                "trace first session=logger-metadata token=call-metadata", "error second error=failure-detail",
            ])
        #expect(capture.text == capture.lines.joined(separator: "\n"))
        capture.clear()
        #expect(capture.entries.isEmpty)
        #expect(capture.text.isEmpty)
    }
}
