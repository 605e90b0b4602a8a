// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Consumers sharing a subscription through nextMessage() (a pool of handler lanes, as the vault worker runs),
// against a scripted server on in-memory channels (no nats-server, no socket).

import NIOConcurrencyHelpers
import Testing
import VettIDTestSupport

@testable import NATSClient

@Suite struct NATSCoreSharedConsumerTests {
    /// A read wakes one lane; lanes that stay busy (slow handlers) must not hold back the rest of a burst while
    /// other lanes wait: the follow-up wakes hand it to them.
    @Test func aBurstForSlowHandlersReachesEveryWaitingLane() async throws {
        let (server, client, connection, _) = try await FakeServerSupport.connected()
        defer {
            Task {
                await client.close(); await server.stop()
            }
        }
        let lanes = 8
        let subscription = try client.subscribe(to: "work")
        #expect(try await connection.next() == .subscribe(subject: "work", queue: nil, sid: 1))
        let started = NIOLockedValueBox<[String]>([])
        let gate = AsyncGate()
        let running = Task {
            await withDiscardingTaskGroup { group in
                for _ in 0..<lanes {
                    group.addTask {
                        while let message = await subscription.nextMessage() {
                            started.withLockedValue { $0.append(message.payloadString) }
                            await gate.wait()  // a slow handler: busy until the test releases it
                        }
                    }
                }
            }
        }
        try #require(await eventually { subscription.waitingConsumers == lanes }, "every lane waits")
        try await connection.send((1...lanes).map { "MSG work 1 1\r\n\($0)\r\n" }.joined())
        // The follow-up wakes come on the client's clock, which moves while the test waits.
        let all = await server.eventually(timeout: .seconds(10)) { started.withLockedValue { $0.count } == lanes }
        #expect(all, "every lane took a message while none was done: \(started.withLockedValue { $0 })")
        #expect(Set(started.withLockedValue { $0 }) == Set((1...lanes).map(String.init)))
        await gate.open()
        subscription.unsubscribe()
        await running.value
    }
}
