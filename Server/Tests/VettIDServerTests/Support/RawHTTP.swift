// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// Writes bytes to a loopback server over a plain TCP socket and reads the answer's status line: for requests a
/// normal HTTP client will not send (methods like TRACE).
enum RawHTTP {
    /// Sends `head` then each of `chunks` as written and returns the first response line's status code.
    ///
    /// The server may answer and close before the whole body is written: writing stops as soon as an answer is
    /// waiting (bytes it never reads would make its close a reset, which can discard the answer here). The socket
    /// calls run on a thread of their own (``RawHTTPConnection/run(port:_:)``).
    static func status(port: Int, head: String, chunks: [[UInt8]] = []) async throws -> Int {
        try await RawHTTPConnection.run(port: port) { connection in
            try connection.sendUntilAnswered([Array(head.utf8)] + chunks)
            return try connection.readStatusLine()
        }
    }
}
