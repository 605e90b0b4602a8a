// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
public import Logging
import SQLKit
import VettIDCrypto

/// A backup of one deployment: the secrets of its data directory (master key, access-token key, key ring, NATS
/// trust) and, on SQLite, a consistent copy of the database taken while the server runs (`VACUUM INTO`). A
/// PostgreSQL deployment backs its database up with `pg_dump` beside this (docs/operations.md, "Backup and
/// restore"). The directory is as secret as the data directory: mode 0700, files 0600.
///
/// `manifest.json` lists every file with its SHA-256; ``restore(from:into:)`` checks them before it writes
/// anything and refuses a target that already has keys, so a restore never overwrites a live deployment's secrets.
public enum ServerBackup {
    /// Why a backup or restore was refused.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// The data directory's secrets, relative to it; each is copied when it exists.
    static let secretFiles = ["keys/master.key", "keys/access-token.p256", "keys/keyring.json", "nats/trust.json"]
    /// The SQLite database's name in the backup and in the data directory.
    static let databaseFile = "vettid.sqlite"

    struct Manifest: Codable, Equatable {
        var format: Int
        var created_at: Int64
        var engine: String
        /// Relative path → hex SHA-256.
        var files: [String: String]
    }

    /// Writes a backup of `configuration`'s deployment to `directory` (created; must not exist or be empty).
    /// - Returns: the files written, relative to `directory`.
    @discardableResult
    public static func write(configuration: ServerConfiguration, to directory: String, logger: Logger) async throws
        -> [String]
    {
        if let existing = try? FileManager.default.contentsOfDirectory(atPath: directory), !existing.isEmpty {
            throw Failure(description: "\(directory) is not empty")
        }
        try SecretFile.ensureDirectory(directory)
        var files: [String: String] = [:]
        for relative in secretFiles {
            guard let bytes = try SecretFile.read(configuration.dataDirectory + "/" + relative) else { continue }
            try SecretFile.ensureDirectory(directory + "/" + (relative as NSString).deletingLastPathComponent)
            try SecretFile.write(bytes, to: directory + "/" + relative)
            files[relative] = hash(bytes)
        }
        guard files["keys/master.key"] != nil else {
            throw Failure(description: "\(configuration.dataDirectory) has no keys/master.key: nothing to back up")
        }
        if configuration.databaseURL == nil {
            let target = directory + "/" + databaseFile
            let store = try await SQLiteStore.open(path: configuration.sqlitePath, logger: logger)
            do {
                try await store.withDatabase { db in try await db.raw("VACUUM INTO \(bind: target)").run() }
                try await store.shutdown()
            } catch {
                try? await store.shutdown()
                throw error
            }
            chmod(target, 0o600)
            files[databaseFile] = try hashFile(target)
        }
        let manifest = Manifest(
            format: 1, created_at: Int64(Date().timeIntervalSince1970),
            engine: configuration.databaseURL == nil ? "sqlite" : "postgres", files: files)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        try SecretFile.write(Array(try encoder.encode(manifest)), to: directory + "/manifest.json")
        return files.keys.sorted() + ["manifest.json"]
    }

    /// Restores the backup in `directory` into the data directory `dataDirectory`, which must hold no keys yet.
    /// Every file is checked against the manifest before anything is written.
    /// - Returns: the engine the backup was taken on (`sqlite` or `postgres`: then restore the dump too).
    @discardableResult
    public static func restore(from directory: String, into dataDirectory: String) throws -> String {
        guard let manifestBytes = try SecretFile.read(directory + "/manifest.json"),
            let manifest = try? JSONDecoder().decode(Manifest.self, from: Data(manifestBytes)), manifest.format == 1
        else { throw Failure(description: "\(directory) has no readable manifest.json") }
        if FileManager.default.fileExists(atPath: dataDirectory + "/keys/master.key") {
            throw Failure(description: "\(dataDirectory) already has keys; restore into an empty data directory")
        }
        for (relative, digest) in manifest.files {
            let path = directory + "/" + relative
            guard FileManager.default.fileExists(atPath: path) else {
                throw Failure(description: "the backup lacks \(relative)")
            }
            guard try hashFile(path) == digest else {
                throw Failure(description: "\(relative) does not match the manifest")
            }
        }
        try SecretFile.ensureDirectory(dataDirectory)
        for relative in manifest.files.keys.sorted() {
            let parent = (relative as NSString).deletingLastPathComponent
            if !parent.isEmpty { try SecretFile.ensureDirectory(dataDirectory + "/" + parent) }
            let target = dataDirectory + "/" + relative
            try? FileManager.default.removeItem(atPath: target)
            try FileManager.default.copyItem(atPath: directory + "/" + relative, toPath: target)
            chmod(target, 0o600)
        }
        return manifest.engine
    }

    private static func hash(_ bytes: [UInt8]) -> String {
        Hex.encode(SHA256.hash(data: bytes))
    }

    /// The hex SHA-256 of a file, read in 1 MiB chunks (a database may be large).
    private static func hashFile(_ path: String) throws -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw Failure(description: "cannot read \(path)")
        }
        defer { try? handle.close() }
        var hasher = SHA256()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            hasher.update(data: chunk)
        }
        return Hex.encode(hasher.finalize())
    }
}
