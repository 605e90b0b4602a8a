// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// One operation parsed from the server's byte stream.
public enum NATSServerOperation: Sendable, Equatable {
    /// `INFO {json}`: initial or asynchronous server information.
    case info(NATSServerInfo)
    /// `MSG`/`HMSG` for subscription `sid`.
    case message(sid: UInt64, NATSMessage)
    /// `PING`: must be answered with `PONG`.
    case ping
    /// `PONG`: answers one of our `PING`s.
    case pong
    /// `+OK` (verbose mode only).
    case ok
    /// `-ERR 'text'` with the quotes removed.
    case error(String)
}
