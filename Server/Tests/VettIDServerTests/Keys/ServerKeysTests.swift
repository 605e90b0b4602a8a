// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import Logging
import Testing

@testable import VettIDServer

@Suite struct ServerKeysTests {
    func temporaryDirectory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("vettid-keys-\(UUID().uuidString)").path
    }

    func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
    }

    @Test func generatesOnFirstRunWith0600AndReloadsTheSameKeys() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try ServerKeys.loadOrCreate(dataDirectory: directory, logger: Logger(label: "test"))
        #expect(try mode(directory) == 0o700)
        #expect(try mode(directory + "/keys") == 0o700)
        #expect(try mode(directory + "/keys/master.key") == 0o600)
        #expect(try mode(directory + "/keys/access-token.p256") == 0o600)
        let second = try ServerKeys.loadOrCreate(dataDirectory: directory, logger: Logger(label: "test"))
        #expect(first.master == second.master)
        #expect(first.accessTokenSigningKey.rawRepresentation == second.accessTokenSigningKey.rawRepresentation)
        #expect(first.derivedKey(purpose: "a") == second.derivedKey(purpose: "a"))
        #expect(first.derivedKey(purpose: "a") != first.derivedKey(purpose: "b"))
    }

    @Test func refusesKeyFilesOthersCanRead() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        _ = try ServerKeys.loadOrCreate(dataDirectory: directory, logger: Logger(label: "test"))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: directory + "/keys/master.key")
        #expect(throws: SecretFile.Failure.self) {
            _ = try ServerKeys.loadOrCreate(dataDirectory: directory, logger: Logger(label: "test"))
        }
    }

    @Test func refusesACorruptKeyFile() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        _ = try ServerKeys.loadOrCreate(dataDirectory: directory, logger: Logger(label: "test"))
        try SecretFile.write([1, 2, 3], to: directory + "/keys/master.key")
        #expect(throws: SecretFile.Failure.self) {
            _ = try ServerKeys.loadOrCreate(dataDirectory: directory, logger: Logger(label: "test"))
        }
    }
}
