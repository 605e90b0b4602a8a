// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Crypto
public import Foundation

/// Supplies the 256-bit key that an ``EncryptedFileSecureStore`` encrypts with.
///
/// Provided: ``FileSecureStoreKeyProvider`` (a random key kept in a 0600 file) and
/// ``StaticSecureStoreKeyProvider`` (a key the app already has, e.g. from an OS key service or a test).
public protocol SecureStoreKeyProvider: Sendable {
    /// The store key (32 bytes).
    func key() async throws -> SymmetricKey
}

/// A key provider that returns a given key.
public struct StaticSecureStoreKeyProvider: SecureStoreKeyProvider {
    private let storeKey: SymmetricKey

    /// Creates the provider.
    /// - Parameter key: A 256-bit key.
    /// - Throws: ``SecureStoreError`` ``SecureStoreError/Code/invalidKey`` for another size.
    public init(key: SymmetricKey) throws {
        guard key.bitCount == 256 else {
            throw SecureStoreError(code: .invalidKey, message: "The store key must be 256 bits.")
        }
        self.init(checkedKey: key)
    }

    /// Creates the provider from raw key bytes.
    /// - Parameter keyBytes: 32 bytes.
    /// - Throws: ``SecureStoreError`` ``SecureStoreError/Code/invalidKey`` for another length.
    public init(keyBytes: Data) throws {
        try self.init(key: SymmetricKey(data: keyBytes))
    }

    /// Creates the provider with a fresh random key (for stores that must not outlive the process).
    public static func random() -> StaticSecureStoreKeyProvider {
        StaticSecureStoreKeyProvider(checkedKey: SymmetricKey(size: .bits256))
    }

    private init(checkedKey: SymmetricKey) {
        self.storeKey = checkedKey
    }

    /// The key.
    public func key() async throws -> SymmetricKey { storeKey }
}

/// A key provider that keeps a random 256-bit key in a file only its owner can read (mode 0600).
///
/// On first use it creates the file (and its parent directory with mode 0700) with a fresh random key; later it
/// reads it back. A key file readable by group or others is refused (``SecureStoreError/Code/insecurePermissions``),
/// as is a file that does not hold exactly 32 bytes. Keep the key file apart from the store file where you can
/// (e.g. a different directory or volume): whoever reads both can read the store.
public actor FileSecureStoreKeyProvider: SecureStoreKeyProvider {
    /// Where the key lives.
    public nonisolated let url: URL
    private var cached: SymmetricKey?

    /// Creates the provider.
    /// - Parameter url: The key file.
    public init(url: URL) {
        self.url = url
    }

    /// Reads the key, creating it on first use.
    public func key() async throws -> SymmetricKey {
        if let cached { return cached }
        let path = url.path
        if try POSIXFile.readIfExists(path) == nil {
            try POSIXFile.makeDirectory((path as NSString).deletingLastPathComponent, mode: 0o700)
            let fresh = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
            do {
                try POSIXFile.createExclusive(path, data: fresh, mode: 0o600)
            } catch let error as SecureStoreError where POSIXFile.isAlreadyExists(error) {
                // Another process created it first: use theirs.
            }
        }
        guard try POSIXFile.permissions(path) & 0o077 == 0 else {
            throw SecureStoreError(
                code: .insecurePermissions, message: "The key file \(path) is readable by other users.")
        }
        guard let bytes = try POSIXFile.readIfExists(path), bytes.count == 32 else {
            throw SecureStoreError(code: .invalidKey, message: "The key file \(path) does not hold a 256-bit key.")
        }
        let key = SymmetricKey(data: bytes)
        cached = key
        return key
    }
}
