// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import OpenAPIRuntime
import SQLKit
import Testing
import VettIDClient
import VettIDServer
import VettIDTestSupport

/// Two `vettid server` processes on one PostgreSQL database and one data directory behind one public origin; a
/// test balancer sends each request to an instance that is up. Instance A is killed with SIGKILL while devices
/// authenticate: their calls move to B, and every device ends up holding exactly the credential version the
/// database committed: nothing acknowledged is lost, no authentication is applied twice (issue 16, item 2).
@Suite(
    .enabled(
        if: CLITests.vettid != nil && ProcessInfo.processInfo.environment["VETTID_TEST_DATABASE_URL"] != nil,
        "needs the vettid executable and the test PostgreSQL"),
    .timeLimit(.minutes(3)))
struct TwoInstanceCrashTests {
    static let publicURL = URL(string: "http://vettid.balanced.test")!
    static let developmentToken = "two-instance-development-token-0123456789"

    /// Round-robins requests over the instances marked up, as a load balancer with health checks does.
    actor Balancer {
        private var up: [URL]
        private var next = 0
        init(_ instances: [URL]) { up = instances }

        func pick() -> URL {
            next += 1
            return up[next % up.count]
        }

        func markDown(_ instance: URL) { up.removeAll { $0 == instance } }
    }

    /// Sends each request to the instance the balancer picks instead of the public origin.
    struct BalancedTransport: ClientTransport {
        let balancer: Balancer
        let base: any ClientTransport

        func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (
            HTTPResponse, HTTPBody?
        ) {
            try await base.send(request, body: body, baseURL: await balancer.pick(), operationID: operationID)
        }
    }

    /// Counts authentications that failed (an instance died under them) and that succeeded.
    actor Tally {
        private(set) var succeeded = 0
        private(set) var failed = 0
        /// Authentications that succeeded after A was killed (through B).
        private(set) var succeededAfterKill = 0
        private var killed = false
        func success() {
            succeeded += 1
            if killed { succeededAfterKill += 1 }
        }
        func failure() { failed += 1 }
        func markKilled() { killed = true }
    }

    @Test func killingAnInstanceUnderLoadMovesCallsToTheOtherAndLosesOrDoublesNothing() async throws {
        let executable = try #require(CLITests.vettid)
        let databaseURL = try await PostgresSchema.create(
            baseURL: try #require(ProcessInfo.processInfo.environment["VETTID_TEST_DATABASE_URL"]))
        let shared = FileManager.default.temporaryDirectory.appendingPathComponent("vettid-two-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: shared) }
        let environment = [
            "VETTID_ARGON2_MEMORY_KIB": "1024", "VETTID_ARGON2_ITERATIONS": "1", "VETTID_ARGON2_PARALLELISM": "1",
            "VETTID_GATE_DEVELOPMENT_TOKENS": Self.developmentToken, "VETTID_LOG_LEVEL": "error",
            "VETTID_RATE_LIMIT_IP_PER_MINUTE": "10000", "VETTID_RATE_LIMIT_ENROLL_PER_MINUTE": "10000",
            "VETTID_RATE_LIMIT_ACTION_PER_MINUTE": "10000", "VETTID_PUBLIC_URL": Self.publicURL.absoluteString,
        ]
        let a = try ServerProcess(
            executable: executable, databaseURL: databaseURL, environment: environment,
            dataDirectory: shared.appendingPathComponent("data").path)
        let b = try ServerProcess(
            executable: executable, databaseURL: databaseURL, environment: environment,
            dataDirectory: shared.appendingPathComponent("data").path)
        defer {
            Task {
                await a.stop(); await b.stop()
            }
        }
        try await a.start()  // creates the shared keys
        try await b.start()
        let balancer = Balancer([a.baseURL, b.baseURL])
        let transport = BalancedTransport(balancer: balancer, base: DefaultTransport.make())

        // Four members, each with one enrolled device (a vault has one device).
        var devices: [VaultService] = []
        for index in 0..<4 {
            let configuration = try AuthManager.Configuration(
                baseURL: Self.publicURL, store: InMemorySecureStore(), transport: transport, logger: VaultLive.logger)
            let member = await MainActor.run { AuthManager(configuration: configuration) }
            try await member.register(email: "two-crash-\(index)@example.com", password: VaultLive.memberPassword)
            let device = try VaultLive.device(
                baseURL: Self.publicURL, attester: DevelopmentTokenAttester(token: Self.developmentToken),
                store: InMemorySecureStore(), transport: transport)
            _ = try await device.enroll(
                invitation: try await VaultLive.invite(member), password: VaultLive.vaultPassword)
            devices.append(device)
        }

        // Each device authenticates in a loop; A dies once eight authentications went through.
        let tally = Tally()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for device in devices {
                group.addTask {
                    for _ in 0..<8 {
                        do {
                            _ = try await device.authenticate(password: VaultLive.vaultPassword)
                            await tally.success()
                        } catch {
                            await tally.failure()
                        }
                    }
                }
            }
            group.addTask {
                _ = await eventually(timeout: .seconds(60)) { await tally.succeeded >= 8 }
                await balancer.markDown(a.baseURL)
                await a.kill()
                await tally.markKilled()
            }
            try await group.waitForAll()
        }
        #expect(await tally.succeeded >= 8)
        let (afterKill, failed) = (await tally.succeededAfterKill, await tally.failed)
        #expect(afterKill > 0, "calls moved to B (\(failed) failed as A died)")

        // Every device authenticates through B, and holds exactly the version the database committed.
        let store = try PostgresStore(url: databaseURL, leaseTimeout: .seconds(30), logger: VaultLive.logger)
        defer { Task { try? await store.shutdown() } }
        for device in devices {
            let session = try await device.authenticate(password: VaultLive.vaultPassword)
            let held = session.credential
            let committed = try await store.withDatabase { db in
                try await db.raw(
                    "SELECT key_version FROM vault_credentials WHERE credential_id = \(bind: held.credentialID)"
                ).first()?.decode(column: "key_version", as: Int.self)
            }
            #expect(committed == held.keyVersion, "device \(held.credentialID): holds \(held.keyVersion)")
        }
        // Nothing doubled or lost overall: the versions add up to the enrollments plus every rotation a device knows.
        let total = try await store.withDatabase { db -> Int? in
            let query: SQLQueryString = "SELECT CAST(SUM(key_version) AS BIGINT) AS total FROM vault_credentials"
            return try await db.raw(query).first()?.decode(column: "total", as: Int.self)
        }
        var held = 0
        for device in devices { held += try #require(try await device.storedCredential()).package.keyVersion }
        #expect(total == held)
    }
}
