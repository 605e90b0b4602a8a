// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import NIOConcurrencyHelpers
import SQLKit
import Testing
import VettIDCore
import VettIDTestSupport

@testable import VettIDServer

/// The store goes away under load and comes back: requests meanwhile get a typed 503, nothing is half-written,
/// and the same server process serves again once the store is back.
@Suite(.serialized) struct StoreOutageTests {
    static let password = "vivid-Otter-parsley-42"

    /// Registers `email`; returns the status.
    static func register(_ client: some TestClientProtocol, _ email: String) async throws -> TestResponse {
        try await client.post("/auth/register", ["email": email, "password": password])
    }

    @Test(.enabled(if: PrivatePostgres.binDirectory != nil))
    func postgresStoppedUnderLoadIs503AndServiceResumesByItself() async throws {
        let postgres = try await PrivatePostgres.create()
        defer { postgres.remove() }
        let store = try PostgresStore(url: postgres.url, logger: Logger(label: "fault"))
        try await withServer(store: store) { client, _ in
            #expect(try await Self.register(client, "before@example.com").status == .created)

            // Load: registrations one after another while PostgreSQL is stopped and started again.
            let outcomes = NIOLockedValueBox([(email: String, status: HTTPResponse.Status, code: String?)]())
            let stop = NIOLockedValueBox(false)
            let load = Task {
                var index = 0
                // Stopped by a flag, not by cancellation: a cancelled request is not an outage answer.
                while !stop.withLockedValue({ $0 }) {
                    let email = "load\(index)@example.com"
                    if let response = try? await Self.register(client, email) {
                        outcomes.withLockedValue { $0.append((email, response.status, response.errorCode)) }
                    }
                    index += 1
                }
            }
            try await Task.sleep(for: .milliseconds(300))
            try await postgres.stop()

            // During the outage: a typed 503 with Retry-After, promptly; not ready.
            let during = try await Self.register(client, "during@example.com")
            #expect(during.status == .serviceUnavailable)
            #expect(during.errorCode == "store_unavailable")
            #expect(during.headers[.retryAfter] == "1")
            let login = try await client.post(
                "/auth/login", ["email": "before@example.com", "password": Self.password])
            #expect(login.status == .serviceUnavailable && login.errorCode == "store_unavailable")
            #expect(try await client.execute(uri: "/health/ready", method: .get).status == .serviceUnavailable)
            try await postgres.start()
            // The same process serves again by itself (the pool reconnects): 90 s, as long as 60 rounds of a
            // registration and 500 ms take on a loaded machine.
            var attempt = 0
            let resumed = try await eventually(timeout: .seconds(90), poll: .milliseconds(500)) {
                attempt += 1
                return try await Self.register(client, "after\(attempt)@example.com").status == .created
            }
            #expect(resumed, "registrations did not succeed again within 90 s of PostgreSQL coming back")
            stop.withLockedValue { $0 = true }
            _ = await load.result
            #expect(try await client.execute(uri: "/health/ready", method: .get).status == .ok)

            // Nothing half-written: every answered registration is exactly as answered.
            let seen = outcomes.withLockedValue { $0 }
            #expect(seen.contains { $0.status == .created })
            #expect(seen.contains { $0.status == .serviceUnavailable }, "the load saw the outage")
            let members = MemberRepository(store: store)
            for outcome in seen {
                #expect(
                    [.created, .serviceUnavailable].contains(outcome.status), "\(outcome.status) \(outcome.code ?? "")")
                if outcome.status == .created {
                    #expect(try await members.find(email: outcome.email) != nil, "\(outcome.email) was answered 201")
                }
            }
            #expect(try await members.find(email: "during@example.com") == nil)
            #expect(
                try await client.post("/auth/login", ["email": "before@example.com", "password": Self.password]).status
                    == .ok)
        }
        try await store.shutdown()
    }

    @Test func sqliteOnAFullDiskIs503WithoutCorruptionAndRecovers() async throws {
        let mountPoint = FileManager.default.temporaryDirectory.appendingPathComponent("vettid-full-\(UUID())").path
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        defer {
            _ = try? runCommandBlocking(["/bin/umount", mountPoint])
            try? FileManager.default.removeItem(atPath: mountPoint)
        }
        // A small tmpfs of its own: filling it touches nothing else.
        guard try await runCommand(["/bin/mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", mountPoint]) == 0 else {
            Issue.record("mounting a tmpfs was refused; the full-disk test needs root (the test command runs as root)")
            return
        }
        let store = try await SQLiteStore.open(path: mountPoint + "/vettid.sqlite", logger: Logger(label: "fault"))
        try await withServer(store: store) { client, _ in
            #expect(try await Self.register(client, "first@example.com").status == .created)

            // Fill the disk.
            let filler = mountPoint + "/filler"
            _ = FileManager.default.createFile(atPath: filler, contents: nil)
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: filler))
            let block = Data(repeating: 0x5A, count: 64 * 1024)
            while (try? handle.write(contentsOf: block)) != nil {}
            try? handle.close()

            var refused: TestResponse?
            for index in 0..<50 {
                let response = try await Self.register(client, "full\(index)@example.com")
                if response.status != .created { refused = response; break }
            }
            let response = try #require(refused, "a write on a full disk is refused")
            #expect(response.status == .serviceUnavailable)
            #expect(response.errorCode == "store_unavailable")

            // Space returns: writes work again, and the database is intact.
            try FileManager.default.removeItem(atPath: filler)
            var attempt = 0
            let recovered = try await eventually(timeout: .seconds(20), poll: .milliseconds(200)) {
                attempt += 1
                return try await Self.register(client, "after\(attempt)@example.com").status == .created
            }
            #expect(recovered, "registrations did not succeed again within 20 s of the space coming back")
            #expect(
                try await client.post("/auth/login", ["email": "first@example.com", "password": Self.password]).status
                    == .ok)
            let check = try await store.withDatabase { db in
                try await db.raw("PRAGMA integrity_check").first()?.decode(column: "integrity_check", as: String.self)
            }
            #expect(check == "ok")
        }
        try await store.shutdown()
    }
}
