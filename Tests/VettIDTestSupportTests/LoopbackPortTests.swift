// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import NIOCore
import NIOPosix
import Testing
import VettIDTestSupport

@Suite struct LoopbackPortTests {
    @Test("ports come from below the ephemeral range, never twice, and can be listened on")
    func distinctBindablePortsBelowTheEphemeralRange() async throws {
        let ports = try (0..<64).map { _ in try LoopbackPort.reserve() }
        #expect(Set(ports).count == ports.count)
        #expect(ports.allSatisfy { LoopbackPort.range.contains($0) })
        for port in ports.prefix(8) {
            let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .bind(host: "127.0.0.1", port: port).get()
            #expect(channel.localAddress?.port == port)
            try await channel.close()
        }
    }

    @Test("a listener on port 0 is never given a port of the range")
    func portZeroStaysOutOfTheRange() async throws {
        for _ in 0..<32 {
            let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .bind(host: "127.0.0.1", port: 0).get()
            let port = try #require(channel.localAddress?.port)
            try await channel.close()
            #expect(!LoopbackPort.range.contains(port), "the kernel picked \(port)")
        }
    }
}
