// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The server's end of one client connection as a test plays it, in memory (FakeNATSConnection) or on a loopback
// socket (LoopbackNATSConnection): what the client sent, what the server answers, and the handshake.

/// The server's end of one client connection.
protocol FakeNATSPeer: Sendable {
    /// The next operation the client sent, waiting up to `timeout` for it.
    func next(timeout: Duration) async throws -> FakeClientOperation

    /// Writes `text` to the client as it is (the test writes the CRLFs).
    func send(_ text: String) async throws
}

extension FakeNATSPeer {
    /// The next operation the client sent, waiting up to 5 seconds for it.
    func next() async throws -> FakeClientOperation {
        try await next(timeout: .seconds(5))
    }

    /// Plays the server's side of the handshake: reads `CONNECT` and `PING`, answers `PONG`; returns the
    /// CONNECT JSON.
    func acceptHandshake(timeout: Duration = .seconds(5)) async throws -> String {
        guard case .connect(let json) = try await next(timeout: timeout) else {
            throw FakeProtocolViolation(description: "the client did not start with CONNECT")
        }
        guard try await next(timeout: timeout) == .ping else {
            throw FakeProtocolViolation(description: "the client did not PING after CONNECT")
        }
        try await send("PONG\r\n")
        return json
    }
}
