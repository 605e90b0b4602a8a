// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

@testable import VettIDClient

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A fresh temporary directory per test.
func makeTemporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("vettid-store-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// The permission bits of `url` (through FileManager: `struct stat` is visible through several clang modules, and
/// which one Swift picks depends on the build, as POSIXFile notes).
func fileMode(_ url: URL) throws -> mode_t {
    guard let mode = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int else {
        throw SecureStoreError(code: .io, message: "no permissions for \(url.path)")
    }
    return mode_t(mode & 0o777)
}

@Suite("Secure stores")
struct SecureStoreTests {
    static func key() throws -> StaticSecureStoreKeyProvider {
        var bytes = Data(count: 32)
        for index in bytes.indices { bytes[index] = UInt8.random(in: 0...255) }
        return try StaticSecureStoreKeyProvider(keyBytes: bytes)
    }

    @Test("in-memory store: set, get, remove, atomic multi-set")
    func inMemory() async throws {
        let store = InMemorySecureStore()
        try await store.set(Data("one".utf8), forKey: "a")
        #expect(try await store.data(forKey: "a") == Data("one".utf8))
        try await store.setValues(["a": nil, "b": Data("two".utf8), "c": Data("three".utf8)])
        #expect(try await store.data(forKey: "a") == nil)
        #expect(await store.keys == ["b", "c"])
        try await store.removeValue(forKey: "b")
        #expect(await store.keys == ["c"])
    }

    @Test("encrypted file store: round trip across instances, no plaintext on disk")
    func roundTrip() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("store.bin")
        let keys = try Self.key()
        let store = EncryptedFileSecureStore(url: url, keyProvider: keys)
        #expect(try await store.data(forKey: "missing") == nil)
        try await store.set(Data("super-secret-token".utf8), forKey: "token")
        try await store.setValues(["user": Data("alice".utf8), "other": Data([0, 1, 2])])
        try await store.removeValue(forKey: "other")

        let reopened = EncryptedFileSecureStore(url: url, keyProvider: keys)
        #expect(try await reopened.data(forKey: "token") == Data("super-secret-token".utf8))
        #expect(try await reopened.data(forKey: "user") == Data("alice".utf8))
        #expect(try await reopened.keys() == ["token", "user"])

        let raw = try Data(contentsOf: url)
        #expect(raw.prefix(4) == Data("VTSS".utf8))
        #expect(raw.range(of: Data("super-secret-token".utf8)) == nil)
        #expect(raw.range(of: Data("alice".utf8)) == nil)
    }

    @Test("store file is 0600 and a created parent directory is 0700; no temporary files remain")
    func permissions() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let nested = directory.appendingPathComponent("config/vettid")
        let url = nested.appendingPathComponent("store.bin")
        let store = EncryptedFileSecureStore(url: url, keyProvider: try Self.key())
        try await store.set(Data("x".utf8), forKey: "k")
        #expect(try fileMode(url) == 0o600)
        #expect(try fileMode(nested) == 0o700)
        for i in 0..<5 { try await store.set(Data("\(i)".utf8), forKey: "k\(i)") }
        let names = try FileManager.default.contentsOfDirectory(atPath: nested.path)
        #expect(names == ["store.bin"])
    }

    @Test("a wrong key is a typed error and the file is left untouched")
    func wrongKey() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("store.bin")
        try await EncryptedFileSecureStore(url: url, keyProvider: try Self.key()).set(Data("v".utf8), forKey: "k")
        let before = try Data(contentsOf: url)

        let intruder = EncryptedFileSecureStore(url: url, keyProvider: try Self.key())
        let readError = await #expect(throws: SecureStoreError.self) { _ = try await intruder.data(forKey: "k") }
        #expect(readError?.code == .wrongKey)
        let writeError = await #expect(throws: SecureStoreError.self) {
            try await intruder.set(Data("w".utf8), forKey: "k")
        }
        #expect(writeError?.code == .wrongKey)
        #expect(try Data(contentsOf: url) == before)
    }

    @Test("a corrupted file is a typed error, never silently replaced")
    func corruption() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("store.bin")
        let keys = try Self.key()
        try await EncryptedFileSecureStore(url: url, keyProvider: keys).set(Data("value".utf8), forKey: "k")

        var bytes = try Data(contentsOf: url)
        bytes[bytes.count - 20] ^= 0x01
        try bytes.write(to: url)
        let store = EncryptedFileSecureStore(url: url, keyProvider: keys)
        let error = await #expect(throws: SecureStoreError.self) { _ = try await store.data(forKey: "k") }
        #expect(error?.code == .corrupted)
        let writeError = await #expect(throws: SecureStoreError.self) {
            try await store.set(Data("new".utf8), forKey: "k")
        }
        #expect(writeError?.code == .corrupted)
        #expect(try Data(contentsOf: url) == bytes)

        try Data("garbage".utf8).write(to: url)
        let garbage = await #expect(throws: SecureStoreError.self) {
            _ = try await EncryptedFileSecureStore(url: url, keyProvider: keys).data(forKey: "k")
        }
        #expect(garbage?.code == .corrupted)
    }

    @Test("multi-item writes are atomic: a reader sees all or none of them")
    func atomicity() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("store.bin")
        let keys = try Self.key()
        let writer = EncryptedFileSecureStore(url: url, keyProvider: keys)
        try await writer.setValues(["a": Data("0".utf8), "b": Data("0".utf8)])
        // Concurrent writers of pairs and independent readers of the file: every snapshot has a == b.
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for i in 1...40 {
                    try await writer.setValues(["a": Data("\(i)".utf8), "b": Data("\(i)".utf8)])
                }
            }
            group.addTask {
                for _ in 0..<40 {
                    let reader = EncryptedFileSecureStore(url: url, keyProvider: keys)
                    let a = try await reader.data(forKey: "a")
                    let b = try await reader.data(forKey: "b")
                    #expect(a == b)
                }
            }
            try await group.waitForAll()
        }
        let final = EncryptedFileSecureStore(url: url, keyProvider: keys)
        #expect(try await final.data(forKey: "a") == Data("40".utf8))
        #expect(try await final.data(forKey: "b") == Data("40".utf8))
    }

    @Test("file key provider creates a 0600 random key once and reuses it")
    func fileKeyProvider() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let keyURL = directory.appendingPathComponent("keys/store.key")
        let first = FileSecureStoreKeyProvider(url: keyURL)
        _ = try await first.key()
        let keyBytes = try Data(contentsOf: keyURL)
        #expect(try fileMode(keyURL) == 0o600)
        #expect(try fileMode(keyURL.deletingLastPathComponent()) == 0o700)
        #expect(try Data(contentsOf: keyURL).count == 32)
        _ = try await FileSecureStoreKeyProvider(url: keyURL).key()
        #expect(try Data(contentsOf: keyURL) == keyBytes)

        let storeURL = directory.appendingPathComponent("store.bin")
        try await EncryptedFileSecureStore(url: storeURL, keyProvider: first).set(Data("v".utf8), forKey: "k")
        let again = EncryptedFileSecureStore(url: storeURL, keyProvider: FileSecureStoreKeyProvider(url: keyURL))
        #expect(try await again.data(forKey: "k") == Data("v".utf8))
    }

    @Test("file key provider refuses a key file readable by others, and a key of the wrong size")
    func fileKeyProviderRefusals() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let open = directory.appendingPathComponent("open.key")
        try Data(repeating: 7, count: 32).write(to: open)
        _ = chmod(open.path, 0o644)
        let error = await #expect(throws: SecureStoreError.self) {
            _ = try await FileSecureStoreKeyProvider(url: open).key()
        }
        #expect(error?.code == .insecurePermissions)

        let short = directory.appendingPathComponent("short.key")
        try Data(repeating: 7, count: 16).write(to: short)
        _ = chmod(short.path, 0o600)
        let sizeError = await #expect(throws: SecureStoreError.self) {
            _ = try await FileSecureStoreKeyProvider(url: short).key()
        }
        #expect(sizeError?.code == .invalidKey)

        #expect(throws: SecureStoreError.self) { _ = try StaticSecureStoreKeyProvider(keyBytes: Data(count: 16)) }

        let randomURL = directory.appendingPathComponent("random.bin")
        let random = StaticSecureStoreKeyProvider.random()
        try await EncryptedFileSecureStore(url: randomURL, keyProvider: random).set(Data("r".utf8), forKey: "k")
        #expect(
            try await EncryptedFileSecureStore(url: randomURL, keyProvider: random).data(forKey: "k") == Data("r".utf8))
        let other = await #expect(throws: SecureStoreError.self) {
            _ = try await EncryptedFileSecureStore(url: randomURL, keyProvider: StaticSecureStoreKeyProvider.random())
                .data(forKey: "k")
        }
        #expect(other?.code == .wrongKey)
    }
}
