// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOConcurrencyHelpers
import Testing
import VettIDTestSupport

@testable import VettIDServer

/// Logs of a whole auth session at trace level contain no password, token or cookie value.
@Suite struct LogRedactionTests {
    @Test(arguments: TestEngine.available)
    func noSecretReachesTheLogs(engine: TestEngine) async throws {
        let log = LogCapture()
        let logger = log.logger(label: "capture")
        let password = "Secret-Walrus-Canoe-77"
        let secrets = SecretBox()
        try await TestApp.withApp(engine, setup: .live, logger: logger) { client, _ in
            secrets.add(password)
            let tokens = try await client.registerAndLogin(email: "logs@example.com", password: password)
            let access = try #require(tokens["access_token"] as? String)
            let refresh = try #require(tokens["refresh_token"] as? String)
            secrets.add(access)
            secrets.add(refresh)
            _ = try await client.get("/auth/me", bearer: access)
            let refreshed = try await client.post("/auth/refresh", ["refresh_token": refresh])
            let newAccess = try #require(refreshed.json["access_token"] as? String)
            secrets.add(newAccess)
            secrets.add(try #require(refreshed.json["refresh_token"] as? String))
            _ = try await client.post("/auth/login", ["email": "logs@example.com", "password": "Wrong-\(password)"])
            secrets.add("Wrong-\(password)")
            _ = try await client.execute(
                uri: "/auth/logout", method: .post,
                headers: [.authorization: "Bearer \(newAccess)", .cookie: "auth-token=\(newAccess)"])
        }
        #expect(log.entries.count > 10, "the capture saw the request logs")
        // Every record: message, metadata and error.
        let text = log.text
        for secret in secrets.values {
            #expect(!text.contains(secret), "a secret appeared in the logs")
            // Also no fragment long enough to matter (e.g. a token's signature part).
            for part in secret.split(separator: ".") where part.count >= 16 {
                #expect(!text.contains(part), "part of a secret appeared in the logs")
            }
        }
    }
}

final class SecretBox: Sendable {
    private let items = NIOLockedValueBox<[String]>([])
    func add(_ value: String) { items.withLockedValue { $0.append(value) } }
    var values: [String] { items.withLockedValue { $0 } }
}
