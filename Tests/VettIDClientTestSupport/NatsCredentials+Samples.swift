// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
public import VettIDClient
import VettIDCore
import VettIDMessaging

/// Credentials for unit tests: expiring `lifetime` after `issued`.
public func sampleNatsCredentials(
    tokenID: String = "tok-1",
    issued: Date = Date(timeIntervalSince1970: 1_900_000_000),
    lifetime: TimeInterval = 24 * 3600,
    endpoint: String = "tls://nats.example.com:4222",
    seed: String = "SUAMK2FG4MI6UE3ACF3FK3OIQBCEIEZV7NSWFFEW63UXMRLFM2XLAXK4GY"
) -> NatsCredentials {
    let namespace = try! VaultNamespace(userGUID: "user-1")
    return NatsCredentials(
        tokenID: tokenID,
        jwt: "eyJ0eXAiOiJKV1QiLCJhbGciOiJlZDI1NTE5LW5rZXkifQ.secret-jwt-body.sig",
        seed: seed,
        creds: "-----BEGIN NATS USER JWT-----\nsecret\n------END NATS USER JWT------\n\(seed)\n",
        endpoint: endpoint,
        expiresAt: issued.addingTimeInterval(lifetime),
        permissions: NatsPermissionSet.forClient(.app, in: namespace),
        namespace: namespace
    )
}

/// A provider that hands out scripted results (unit tests only).
public actor ScriptedNatsProvider: NatsCredentialProvider {
    private var results: [Result<NatsCredentials, APIError>]
    /// How many times credentials were asked for.
    public private(set) var calls = 0

    /// A provider that answers with `results`, in order, then `not_found`.
    public init(_ results: [Result<NatsCredentials, APIError>]) {
        self.results = results
    }

    /// The next scripted result.
    public func issueCredentials() async throws -> NatsCredentials {
        calls += 1
        guard !results.isEmpty else { throw APIError(code: .notFound, description: "no more credentials") }
        return try results.removeFirst().get()
    }
}
