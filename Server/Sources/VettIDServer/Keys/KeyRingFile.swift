// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import VettIDCrypto

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `<data-dir>/keys/keyring.json`: the generations of every key family (``KeyRings``), mode 0600 like the other
/// key files, written atomically so an instance reloading it never reads half a file.
///
/// ```json
/// {"format": 1,
///  "token-signing": [{"generation": 1, "created_at": 0, "activates_at": 0},
///                    {"generation": 2, "secret": "<base64url of 32 bytes>", "created_at": 1764000000,
///                     "activates_at": 1764000060}]}
/// ```
/// The file does not exist until the first rotation: every family is then at generation 1.
public enum KeyRingFile {
    /// Why the file could not be read.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { "\(path): \(reason)" }
    }

    /// The file's path under a data directory.
    public static func path(dataDirectory: String) -> String { dataDirectory + "/keys/keyring.json" }

    private struct StoredGeneration: Codable {
        var generation: Int
        var secret: String?
        var created_at: Int64
        var activates_at: Int64
    }

    private struct Stored: Codable {
        var format: Int
        var families: [String: [StoredGeneration]]

        private struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(format: Int, families: [String: [StoredGeneration]]) {
            self.format = format
            self.families = families
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            format = try container.decode(Int.self, forKey: Key(stringValue: "format"))
            families = [:]
            for key in container.allKeys where key.stringValue != "format" {
                families[key.stringValue] = try container.decode([StoredGeneration].self, forKey: key)
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(format, forKey: Key(stringValue: "format"))
            for (family, generations) in families {
                try container.encode(generations, forKey: Key(stringValue: family))
            }
        }
    }

    /// The rings stored under `dataDirectory`, or every family at generation 1 when there is no file yet.
    public static func load(dataDirectory: String) throws -> KeyRings {
        let path = path(dataDirectory: dataDirectory)
        guard let bytes = try SecretFile.read(path) else { return .original }
        return try decode(bytes, path: path)
    }

    /// Parses the file's bytes; `path` only names it in errors.
    static func decode(_ bytes: [UInt8], path: String) throws -> KeyRings {
        let stored: Stored
        do {
            stored = try JSONDecoder().decode(Stored.self, from: Data(bytes))
        } catch {
            throw Failure(path: path, reason: "not a key ring file (\(type(of: error)))")
        }
        guard stored.format == 1 else { throw Failure(path: path, reason: "format \(stored.format) is not 1") }
        var rings = KeyRings.original
        for (name, generations) in stored.families {
            guard let family = KeyFamily(rawValue: name) else {
                throw Failure(path: path, reason: "unknown key family \"\(name)\"")
            }
            do {
                rings[family] = try KeyRing(
                    generations: try generations.map { stored in
                        var secret: [UInt8]?
                        if let text = stored.secret {
                            guard let bytes = Base64URL.decode(text) else {
                                throw KeyRing.Refusal(
                                    code: "bad_secret", description: "generation \(stored.generation): not base64url")
                            }
                            secret = bytes
                        }
                        return KeyRing.Generation(
                            number: stored.generation, secret: secret, createdAt: stored.created_at,
                            activatesAt: stored.activates_at)
                    })
            } catch let refusal as KeyRing.Refusal {
                throw Failure(path: path, reason: "\(name): \(refusal.description)")
            }
        }
        return rings
    }

    /// The file's bytes for `rings`: every family, sorted keys, so the same rings give the same file.
    static func encode(_ rings: KeyRings) throws -> [UInt8] {
        var families: [String: [StoredGeneration]] = [:]
        for family in KeyFamily.allCases {
            families[family.rawValue] = rings[family].generations.map {
                StoredGeneration(
                    generation: $0.number, secret: $0.secret.map(Base64URL.encode), created_at: $0.createdAt,
                    activates_at: $0.activatesAt)
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        return Array(try encoder.encode(Stored(format: 1, families: families)))
    }

    /// Writes `rings` under `dataDirectory` (0600, atomically).
    public static func store(_ rings: KeyRings, dataDirectory: String) throws {
        try SecretFile.ensureDirectory(dataDirectory)
        try SecretFile.ensureDirectory(dataDirectory + "/keys")
        try SecretFile.write(try encode(rings), to: path(dataDirectory: dataDirectory))
    }

    /// Reads the rings, lets `change` edit them and writes the result, holding an exclusive lock on
    /// `keys/keyring.lock` throughout, so two operators rotating at once do not lose one rotation.
    public static func update<Result>(dataDirectory: String, _ change: (inout KeyRings) throws -> Result) throws
        -> Result
    {
        try SecretFile.ensureDirectory(dataDirectory)
        try SecretFile.ensureDirectory(dataDirectory + "/keys")
        let lockPath = dataDirectory + "/keys/keyring.lock"
        let fd = open(lockPath, O_RDWR | O_CREAT, 0o600)
        guard fd >= 0 else { throw Failure(path: lockPath, reason: "cannot open (errno \(errno))") }
        defer { close(fd) }
        guard flock(fd, LOCK_EX) == 0 else { throw Failure(path: lockPath, reason: "cannot lock (errno \(errno))") }
        defer { flock(fd, LOCK_UN) }
        var rings = try load(dataDirectory: dataDirectory)
        let result = try change(&rings)
        try store(rings, dataDirectory: dataDirectory)
        return result
    }
}
