// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import Logging
import Testing
import VettIDCore
import VettIDLocalAPNS
import VettIDTestSupport

@testable import VettIDServer

/// ``LocalAPNSServer`` refuses what Apple documents as refused, so the provider's tests against it mean something.
@Suite struct LocalAPNSServerTests {
    @Test func theTestServerRefusesWhatAPNsRefuses() async throws {
        let clock = ManualClock(start: Date())
        let key = P256.Signing.PrivateKey()
        let keyID = APNSProviderLiveTests.keyID
        let teamID = APNSProviderLiveTests.teamID
        let server = try await LocalAPNSServer(
            publicKey: key.publicKey, keyID: keyID, teamID: teamID, topics: [APNSProviderLiveTests.topic],
            now: { clock.wall.now() })
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vettid-apns-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let configuration = APNSConfiguration(
            productionURL: server.baseURL, sandboxURL: server.baseURL, caFile: try server.writeCA(to: directory))
        let client = try APNSHTTPClient(configuration: configuration, logger: Logger(label: "apns-test"))
        let now = clock.wall.unixSeconds()
        func jwt(issuedAt: Int64 = now, kid: String = keyID, key: P256.Signing.PrivateKey = key) throws -> String {
            try APNSProviderToken.sign(keyID: kid, teamID: teamID, issuedAt: issuedAt, key: key, serial: 0).jwt
        }
        let good = try jwt()
        func send(
            token: String = APNSProviderLiveTests.token("00"), topic: String = APNSProviderLiveTests.topic,
            priority: Int = 10, pushType: String = "alert", providerToken: String? = nil,
            payload: [UInt8] = Array("{}".utf8)
        ) async throws -> (Int, String?) {
            let response = try await client.send(
                APNSWireRequest(
                    deviceToken: token, topic: topic, pushID: UUID(), collapseID: "c", expiration: now + 60,
                    priority: priority, pushType: pushType, providerToken: providerToken ?? good, payload: payload),
                to: .production)
            return (response.status, response.reason)
        }
        do {
            #expect(try await send() == (200, nil))
            #expect(try await send(token: String(repeating: "a", count: 63)) == (400, "BadDeviceToken"))
            #expect(try await send(topic: "org.example.other") == (400, "TopicDisallowed"))
            #expect(try await send(priority: 7) == (400, "BadPriority"))
            #expect(try await send(pushType: "shout") == (400, "InvalidPushType"))
            #expect(try await send(payload: []) == (400, "PayloadEmpty"))
            #expect(try await send(payload: Array(repeating: 0x20, count: 4_097)) == (413, "PayloadTooLarge"))
            // Each refused provider token below is checked before the connection's token-change throttle.
            #expect(try await send(providerToken: try jwt(kid: "OTHERKEY12")) == (403, "InvalidProviderToken"))
            #expect(
                try await send(providerToken: try jwt(key: P256.Signing.PrivateKey())) == (403, "InvalidProviderToken"))
            #expect(try await send(providerToken: "not.a.jwt") == (403, "InvalidProviderToken"))
            #expect(try await send(providerToken: try jwt(issuedAt: now - 3_601)) == (403, "ExpiredProviderToken"))
            // A valid new token one minute after the first: too soon on this connection.
            clock.advance(60)
            #expect(try await send(providerToken: try jwt(issuedAt: now + 60)) == (429, "TooManyProviderTokenUpdates"))
        } catch {
            try await client.shutdown()
            await server.stop()
            throw error
        }
        try await client.shutdown()
        await server.stop()
    }
}
