// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import NATSClient
import NIOCore
import Testing
import VettIDCrypto
import VettIDTestSupport

@Suite(.enabled(if: NATSServerProcess.isAvailable, "nats-server is not installed: NATS integration tests skipped"))
struct NATSAuthIntegrationTests {
    func connect(_ server: NATSServerProcess, auth: NATSAuth) async throws -> NATSClient {
        let client = try NATSClient(
            configuration: NATSClient.Configuration(servers: [server.url], auth: auth, reconnect: .disabled)
        )
        try await client.connect()
        return client
    }

    func expectConnectFailure(_ server: NATSServerProcess, auth: NATSAuth, code: NATSError.Code) async throws {
        do {
            let client = try await connect(server, auth: auth)
            await client.close()
            Issue.record("connected with bad credentials (\(auth))")
        } catch let error as NATSError {
            #expect(error.code == code)
        }
    }

    func roundTrip(_ client: NATSClient, subject: String = "auth.check") async throws {
        let subscription = try client.subscribe(to: subject)
        try await client.flush()
        try client.publish("ok", to: subject)
        var iterator = subscription.makeAsyncIterator()
        #expect(await iterator.next()?.payloadString == "ok")
        subscription.unsubscribe()
    }

    @Test func token() async throws {
        let server = try await NATSServerProcess(configuration: "authorization { token: \"s3cr3t-token\" }")
        defer { server.cleanUp() }
        let client = try await connect(server, auth: .token("s3cr3t-token"))
        try await roundTrip(client)
        await client.close()
        try await expectConnectFailure(server, auth: .token("wrong"), code: .authorizationViolation)
        try await expectConnectFailure(server, auth: .none, code: .authorizationViolation)
    }

    @Test func userPassword() async throws {
        let server = try await NATSServerProcess(
            configuration: "authorization { user: alice, password: \"pa55 word\" }")
        defer { server.cleanUp() }
        let client = try await connect(server, auth: .userPassword(user: "alice", password: "pa55 word"))
        try await roundTrip(client)
        await client.close()
        try await expectConnectFailure(
            server, auth: .userPassword(user: "alice", password: "nope"), code: .authorizationViolation)
    }

    @Test func nkey() async throws {
        let user = NKeyPair.generate(.user)
        let seed = try user.encodedSeed()
        let server = try await NATSServerProcess(
            configuration: "authorization { users: [ { nkey: \(user.publicKey) } ] }"
        )
        defer { server.cleanUp() }
        let client = try await connect(server, auth: .nkeySeed(seed))
        try await roundTrip(client)
        await client.close()
        // A signing callback with the same key works too.
        let viaCallback = try await connect(server, auth: .nkey(publicKey: user.publicKey) { try user.sign($0) })
        try await roundTrip(viaCallback)
        await viaCallback.close()
        try await expectConnectFailure(
            server,
            auth: .nkeySeed(try NKeyPair.generate(.user).encodedSeed()),
            code: .authorizationViolation
        )
    }

    @Test func operatorModeWithJWTs() async throws {
        let setup = try OperatorSetup()
        let server = try await NATSServerProcess(configuration: setup.configuration)
        defer { server.cleanUp() }

        let user = try setup.user()
        let client = try await connect(server, auth: .jwt(user.jwt, seed: user.seed))
        try await roundTrip(client)
        await client.close()

        // The same credentials as a creds file.
        let credsPath = server.directory.appendingPathComponent("user.creds").path
        try NATSCredsFile(jwt: user.jwt, seed: user.seed).formatted.write(
            toFile: credsPath, atomically: true, encoding: .utf8)
        let fromFile = try await connect(server, auth: .credentialsFile(path: credsPath))
        try await roundTrip(fromFile)
        await fromFile.close()

        // JWT callback + signing callback.
        let seedPair = try NKeyPair(seed: user.seed)
        let viaCallbacks = try await connect(server, auth: .jwt({ user.jwt }, sign: { try seedPair.sign($0) }))
        try await roundTrip(viaCallbacks)
        await viaCallbacks.close()

        // A JWT with the wrong seed fails the nonce signature.
        let other = try setup.user()
        try await expectConnectFailure(server, auth: .jwt(user.jwt, seed: other.seed), code: .authorizationViolation)
        // A user signed by an account the server does not know fails.
        let stranger = try OperatorSetup().user()
        try await expectConnectFailure(
            server, auth: .jwt(stranger.jwt, seed: stranger.seed), code: .authorizationViolation)
    }

    @Test func permissionsViolationIsReportedAndNotFatal() async throws {
        let setup = try OperatorSetup()
        let server = try await NATSServerProcess(configuration: setup.configuration)
        defer { server.cleanUp() }
        let user = try setup.user(
            NATSUserClaims(
                permissions: NATSClaimPermissions(
                    publish: NATSPermission(allow: ["allowed.>", "_INBOX.>"]),
                    subscribe: NATSPermission(allow: ["allowed.>", "_INBOX.>"])
                )
            )
        )
        let client = try await connect(server, auth: .jwt(user.jwt, seed: user.seed))
        try await roundTrip(client, subject: "allowed.one")
        let violation = Task {
            try await firstEvent(client) {
                if case .error(let e) = $0 { e.code == .permissionsViolation } else { false }
            }
        }
        try client.publish("nope", to: "denied.subject")
        try await client.flush()
        guard case .error(let error) = try await violation.value else { return }
        #expect(error.message.contains("denied.subject"))
        #expect(client.isConnected)
        try await roundTrip(client, subject: "allowed.two")
        await client.close()
    }

    @Test func expiredUserIsCutOff() async throws {
        let setup = try OperatorSetup()
        let server = try await NATSServerProcess(configuration: setup.configuration)
        defer { server.cleanUp() }
        let user = try setup.user(expires: Int64(Date().timeIntervalSince1970) + 2)
        let client = try NATSClient(
            configuration: NATSClient.Configuration(
                servers: [server.url], auth: .jwt(user.jwt, seed: user.seed), reconnect: .disabled)
        )
        let expired = Task {
            try await firstEvent(client, timeout: .seconds(6)) { if case .disconnected = $0 { true } else { false } }
        }
        try await client.connect()
        guard case .disconnected(let error) = try await expired.value else { return }
        #expect(error?.code == .authenticationExpired)
    }
}
