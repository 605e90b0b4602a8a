// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Logging
import Testing

@testable import VettIDServer

/// The `apns_*` configuration keys.
@Suite struct APNSConfigurationTests {
    @Test func apnsIsOffByDefaultAndPointsAtApple() throws {
        let apns = try ConfigurationLoader().load(environment: [:]).apns
        #expect(!apns.isEnabled)
        #expect(apns.baseURL(for: .production) == "https://api.push.apple.com")
        #expect(apns.baseURL(for: .sandbox) == "https://api.sandbox.push.apple.com")
        #expect(apns.tokenRefreshInterval == .seconds(2_400))
        #expect(apns.expiration == .seconds(86_400))
    }

    @Test func apnsKeysAreReadFromTheEnvironment() throws {
        let apns = try ConfigurationLoader().load(environment: [
            "VETTID_APNS_KEY_FILE": "/etc/vettid/AuthKey.p8", "VETTID_APNS_KEY_ID": "ABC123DEFG",
            "VETTID_APNS_TEAM_ID": "TEAM123456", "VETTID_APNS_BUNDLE_IDS": "org.vettid.app, org.vettid.beta",
            "VETTID_APNS_SANDBOX_URL": "https://127.0.0.1:9443/", "VETTID_APNS_CA_FILE": "/tmp/ca.pem",
            "VETTID_APNS_TOKEN_REFRESH_SECONDS": "1800", "VETTID_APNS_QUEUE_CAPACITY": "50",
            "VETTID_APNS_MAX_ATTEMPTS": "3", "VETTID_APNS_EXPIRATION_SECONDS": "3600",
            "VETTID_APNS_MAX_CONCURRENT": "4", "VETTID_APNS_REQUEST_TIMEOUT_SECONDS": "7",
        ]).apns
        #expect(apns.isEnabled)
        #expect(apns.keyID == "ABC123DEFG")
        #expect(apns.teamID == "TEAM123456")
        #expect(apns.bundleIDs == ["org.vettid.app", "org.vettid.beta"])
        #expect(apns.baseURL(for: .sandbox) == "https://127.0.0.1:9443")
        #expect(apns.caFile == "/tmp/ca.pem")
        #expect(apns.tokenRefreshInterval == .seconds(1_800))
        #expect(apns.queueCapacity == 50)
        #expect(apns.maxAttempts == 3)
        #expect(apns.expiration == .seconds(3_600))
        #expect(apns.maxConcurrentSends == 4)
        #expect(apns.requestTimeout == .seconds(7))
    }

    @Test(arguments: [
        (["apns_key_id": "short"], "apns_key_id"),
        (["apns_team_id": "TEAM-12345"], "apns_team_id"),
        (["apns_bundle_ids": "noDots"], "apns_bundle_ids"),
        (["apns_production_url": "http://api.push.apple.com"], "apns_production_url"),
        (["apns_token_refresh_seconds": "600"], "apns_token_refresh_seconds"),
        (["apns_token_refresh_seconds": "3600"], "apns_token_refresh_seconds"),
        (["apns_key_file": "/k.p8", "apns_team_id": "TEAM123456", "apns_bundle_ids": "a.b"], "apns_key_id"),
        (["apns_key_file": "/k.p8", "apns_key_id": "ABC123DEFG", "apns_bundle_ids": "a.b"], "apns_team_id"),
        (["apns_key_file": "/k.p8", "apns_key_id": "ABC123DEFG", "apns_team_id": "TEAM123456"], "apns_bundle_ids"),
    ])
    func badOrMissingAPNSValuesAreErrorsNamingTheKey(flags: [String: String], key: String) {
        #expect {
            _ = try ConfigurationLoader().load(environment: [:], flags: flags)
        } throws: { error in
            (error as? ConfigurationLoader.Invalid)?.key == key
        }
    }

    @Test func aMissingOrMalformedKeyFileIsAnErrorThatShowsNoKey() throws {
        let configuration = APNSConfiguration(
            keyFile: "/nonexistent/AuthKey.p8", keyID: "ABC123DEFG", teamID: "TEAM123456", bundleIDs: ["a.b"])
        #expect {
            _ = try APNSProvider(
                configuration: configuration, outcomes: NoOutcomes(), metrics: ServerMetrics(),
                logger: .init(label: "test"))
        } throws: { error in
            (error as? APNSError)?.code == .keyUnreadable
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID()).p8")
        try Data("-----BEGIN PRIVATE KEY-----\nc2VjcmV0\n-----END PRIVATE KEY-----\n".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var bad = configuration
        bad.keyFile = file.path
        #expect {
            _ = try APNSProvider(
                configuration: bad, outcomes: NoOutcomes(), metrics: ServerMetrics(), logger: .init(label: "test"))
        } throws: { error in
            (error as? APNSError)?.code == .keyUnreadable && !"\(error)".contains("c2VjcmV0")
        }
    }
}

private struct NoOutcomes: APNSPushOutcomeHandler {
    func pushFinished(_ outcome: APNSPushOutcome) async {}
}
