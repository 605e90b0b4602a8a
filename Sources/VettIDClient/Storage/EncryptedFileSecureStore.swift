// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
public import Foundation

/// A ``SecureStore`` in one encrypted file: ChaCha20-Poly1305 under a key from a ``SecureStoreKeyProvider``.
///
/// - The file is `magic "VTSS" ‖ version 1 ‖ key check (8 bytes) ‖ nonce ‖ ciphertext ‖ tag`; the header is the
///   AEAD's associated data. The key check (HMAC-SHA256 of a fixed label under the key, truncated) tells a
///   wrong key (``SecureStoreError/Code/wrongKey``) from damaged content (``SecureStoreError/Code/corrupted``).
/// - Every write re-encrypts the whole item set with a fresh nonce into a temporary file (mode 0600, synced)
///   in the same directory and renames it over the store, so readers and crashes see the old or the new
///   content, never a mix. ``setValues(_:)`` is therefore atomic across keys.
/// - The parent directory is created with mode 0700 when missing.
/// - A store that cannot be opened is never overwritten: writes fail with the same error as reads.
///
/// One actor instance serialises access within a process; use one instance per file.
public actor EncryptedFileSecureStore: SecureStore {
    static let magic = Data("VTSS".utf8)
    static let version: UInt8 = 1
    static let keyCheckLength = 8
    static let headerLength = 4 + 1 + keyCheckLength

    /// The store file.
    public nonisolated let url: URL
    private let keyProvider: any SecureStoreKeyProvider
    private var cache: [String: Data]?

    /// Creates a store; nothing is read or written until first use.
    /// - Parameters:
    ///   - url: The store file.
    ///   - keyProvider: Supplies the encryption key.
    public init(url: URL, keyProvider: any SecureStoreKeyProvider) {
        self.url = url
        self.keyProvider = keyProvider
    }

    /// The value for `key`.
    public func data(forKey key: String) async throws -> Data? {
        try await load()[key]
    }

    /// Applies all changes in one atomic file replacement.
    public func setValues(_ values: [String: Data?]) async throws {
        var items = try await load()
        for (key, value) in values {
            items[key] = value
        }
        try await write(items)
        cache = items
    }

    /// All keys currently stored.
    public func keys() async throws -> [String] {
        try await load().keys.sorted()
    }

    private func load() async throws -> [String: Data] {
        if let cache { return cache }
        let key = try await keyProvider.key()
        guard let file = try POSIXFile.readIfExists(url.path) else {
            cache = [:]
            return [:]
        }
        let items = try Self.decrypt(file, key: key)
        cache = items
        return items
    }

    private func write(_ items: [String: Data]) async throws {
        let key = try await keyProvider.key()
        let file = try Self.encrypt(items, key: key)
        let path = url.path
        let directory = (path as NSString).deletingLastPathComponent
        try POSIXFile.makeDirectory(directory, mode: 0o700)
        let name = (path as NSString).lastPathComponent
        let temporary = (directory as NSString).appendingPathComponent(".\(name).tmp-\(UUID().uuidString)")
        do {
            try POSIXFile.createExclusive(temporary, data: file, mode: 0o600)
            try POSIXFile.replace(path, with: temporary)
        } catch {
            POSIXFile.removeQuietly(temporary)
            throw error
        }
    }

    static func keyCheck(_ key: SymmetricKey) -> Data {
        let mac = HMAC<SHA256>.authenticationCode(for: Data("vettid-secure-store-key-check-v1".utf8), using: key)
        return Data(mac).prefix(keyCheckLength)
    }

    static func header(_ key: SymmetricKey) -> Data {
        var header = magic
        header.append(version)
        header.append(keyCheck(key))
        return header
    }

    static func encrypt(_ items: [String: Data], key: SymmetricKey) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let plaintext = try encoder.encode(StoreContent(items: items))
        let header = header(key)
        let box = try ChaChaPoly.seal(plaintext, using: key, authenticating: header)
        return header + box.combined
    }

    static func decrypt(_ file: Data, key: SymmetricKey) throws -> [String: Data] {
        let bytes = Data(file)
        guard bytes.count >= headerLength + 12 + 16, bytes.prefix(4) == magic else {
            throw SecureStoreError(code: .corrupted, message: "The store file is not a VettID secure store.")
        }
        guard bytes[bytes.startIndex + 4] == version else {
            throw SecureStoreError(code: .corrupted, message: "The store file has an unknown version.")
        }
        let storedCheck = bytes.subdata(in: 5..<headerLength)
        guard storedCheck == keyCheck(key) else {
            throw SecureStoreError(code: .wrongKey, message: "The key does not open this store.")
        }
        let header = bytes.prefix(headerLength)
        let plaintext: Data
        do {
            let box = try ChaChaPoly.SealedBox(combined: bytes.subdata(in: headerLength..<bytes.count))
            plaintext = try ChaChaPoly.open(box, using: key, authenticating: header)
        } catch {
            throw SecureStoreError(
                code: .corrupted, message: "The store file failed authentication.", underlying: error)
        }
        do {
            return try JSONDecoder().decode(StoreContent.self, from: plaintext).items
        } catch {
            throw SecureStoreError(code: .corrupted, message: "The store content cannot be decoded.", underlying: error)
        }
    }

    struct StoreContent: Codable {
        var items: [String: Data]
    }
}
