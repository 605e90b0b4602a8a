// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Loopback ports for servers a test starts itself, possibly more than once on the same port.

import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// Hands out loopback TCP ports for servers that a test starts as a process of its own (`vettid server`,
/// `nats-server`, PostgreSQL) and may stop and start again on the same port.
///
/// The kernel's pick for port 0 is not safe for that: it comes from the ephemeral range, where any listener another
/// test binds to port 0 (an in-process HTTP server, a nats-server started with `-p -1`) can be given the same port
/// while this test's server is down between a kill and a restart; the restarted server then fails to bind and the
/// test's requests reach the other server. So the ports come from below the ephemeral range
/// (`/proc/sys/net/ipv4/ip_local_port_range`), where port 0 never lands, and no port is handed out twice in one
/// process.
public enum LoopbackPort {
    private static let handedOut = NIOLockedValueBox<Set<Int>>([])

    /// The lowest port handed out.
    static let lowest = 20_000

    /// The ports handed out: from 20000 up to the start of the kernel's ephemeral range (32768 where `/proc` does
    /// not say).
    public static let range: Range<Int> = lowest..<max(lowest, ephemeralRangeStart())

    /// A port below the ephemeral range that nothing listens on now and this process has not handed out before.
    public static func reserve() throws -> Int {
        let range = range
        guard !range.isEmpty else { throw Failure(description: "the ephemeral range starts below \(lowest)") }
        for _ in 0..<500 {
            let candidate = Int.random(in: range)
            let fresh = handedOut.withLockedValue { $0.insert(candidate).inserted }
            guard fresh else { continue }
            if isBindable(candidate) { return candidate }
        }
        throw Failure(description: "no free loopback port in \(range) after 500 tries")
    }

    private static func ephemeralRangeStart() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8),
            let first = text.split(whereSeparator: \.isWhitespace).first, let start = Int(first)
        else { return 32_768 }
        return start
    }

    private static func isBindable(_ port: Int) -> Bool {
        guard
            let channel = try? ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .bind(host: "127.0.0.1", port: port).wait()
        else { return false }
        try? channel.close().wait()
        return true
    }

    /// No port could be handed out.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }
}
