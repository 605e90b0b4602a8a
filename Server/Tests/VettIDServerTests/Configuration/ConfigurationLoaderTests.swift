// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Logging
import Testing
import VettIDCore

@testable import VettIDServer

@Suite struct ConfigurationLoaderTests {
    @Test func defaultsAreDocumentedValues() throws {
        let configuration = try ConfigurationLoader().load(environment: [:])
        #expect(configuration.host == "127.0.0.1")
        #expect(configuration.port == 8080)
        #expect(configuration.databaseURL == nil)
        #expect(configuration.sqlitePath == "./vettid-data/vettid.sqlite")
        #expect(configuration.argon2 == .rfc9106LowMemory)
        #expect(configuration.passwordPolicy.minimumLength == 12)
        #expect(configuration.maxBodyBytes == 65_536)
    }

    @Test func everyKeyTheLoaderAppliesIsReadFromTheEnvironment() throws {
        // The keys `apply` switches over, read from its source, must all be in `keys` (which the environment
        // layer walks): a key missing there is silently ignored as VETTID_<KEY>.
        let source = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../../../Sources/VettIDServer/Configuration/ConfigurationLoader.swift"),
            encoding: .utf8)
        let applied = source.matches(of: /case "([a-z0-9_]+)":/).map { String($0.output.1) }
            .filter { $0.contains("_") || ConfigurationLoader.keys.contains($0) }
        #expect(applied.count > 40)
        #expect(Set(applied).subtracting(ConfigurationLoader.keys).sorted() == [])
        let configuration = try ConfigurationLoader().load(environment: [
            "VETTID_NATS_WORKER_INSTANCES": "3", "VETTID_RATE_LIMIT_ACCOUNT_FAILURES_CEILING": "7",
        ])
        #expect(configuration.nats.workerInstances == 3)
        #expect(configuration.limits.failedLoginsPerAccountCeiling.capacity == 7)
    }

    @Test func flagsBeatEnvironmentWhichBeatsTheFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("vettid-config-\(UUID()).json")
        try Data(#"{"port": 9000, "host": "0.0.0.0", "log_level": "debug", "trust_forwarded_for": true}"#.utf8).write(
            to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let configuration = try ConfigurationLoader().load(
            file: file.path,
            environment: ["VETTID_PORT": "9100", "VETTID_DATABASE_URL": "postgres://u@h/db"],
            flags: ["port": "9200"]
        )
        #expect(configuration.port == 9200)
        #expect(configuration.host == "0.0.0.0")
        #expect(configuration.logLevel == .debug)
        #expect(configuration.trustForwardedFor)
        #expect(configuration.databaseURL == "postgres://u@h/db")
    }

    @Test(arguments: [
        (["port": "70000"], "port"),
        (["port": "eighty"], "port"),
        (["log_level": "loud"], "log_level"),
        (["argon2_memory_kib": "8"], "argon2_memory_kib"),
        (["no_such_key": "1"], "no_such_key"),
        (["nats_url": "http://127.0.0.1:4222"], "nats_url"),
        (["nats_url": "nats://"], "nats_url"),
        (["nats_app_token_ttl_seconds": "172800"], "nats_app_token_ttl_seconds"),
    ])
    func badValuesAreErrorsNamingTheKey(flags: [String: String], key: String) {
        #expect {
            _ = try ConfigurationLoader().load(environment: [:], flags: flags)
        } throws: { error in
            (error as? ConfigurationLoader.Invalid)?.key == key
        }
    }

    @Test func natsKeysConfigureTheIssuerAndTheWorker() throws {
        let configuration = try ConfigurationLoader().load(
            environment: [:],
            flags: [
                "nats_url": "tls://127.0.0.1:4222", "nats_public_url": "tls://nats.example.com:4222",
                "nats_app_token_ttl_seconds": "60", "nats_worker_instances": "3",
            ])
        #expect(configuration.nats.url == "tls://127.0.0.1:4222")
        #expect(configuration.nats.advertisedURL == "tls://nats.example.com:4222")
        #expect(configuration.nats.appTokenLifetime == .seconds(60))
        #expect(configuration.nats.vaultTokenLifetime == .seconds(86_400))
        #expect(configuration.nats.workerInstances == 3)
        #expect(try ConfigurationLoader().load(environment: [:], flags: [:]).nats.url == nil, "NATS is off by default")
    }

    @Test func unreadableOrMalformedFileIsAnError() throws {
        #expect(throws: ConfigurationLoader.Invalid.self) {
            _ = try ConfigurationLoader().load(file: "/nonexistent/vettid.json", environment: [:])
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("vettid-config-\(UUID()).json")
        try Data("[1,2]".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(throws: ConfigurationLoader.Invalid.self) {
            _ = try ConfigurationLoader().load(file: file.path, environment: [:])
        }
    }
}
