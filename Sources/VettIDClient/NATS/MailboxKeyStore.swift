// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Crypto
import Foundation
import VettIDCrypto

/// The device's mailbox key (docs/protocol.md 7.5): an X25519 key made on first use and kept in the device's
/// ``SecureStore``; the vault seals what it leaves in the device's mailbox to its public half.
///
/// Only this device reads its mailbox: the key never leaves the store except as its public half in a token
/// request. A new key (after ``reset()``) makes what was sealed to the old one unreadable; the SDK then `+TERM`s it.
public actor MailboxKeyStore {
    /// The store item's key.
    public nonisolated let storageKey: String
    private let store: any SecureStore
    private var cached: Curve25519.KeyAgreement.PrivateKey?

    public init(store: any SecureStore, keyPrefix: String = "vettid") {
        self.store = store
        self.storageKey = "\(keyPrefix).nats.mailbox-key"
    }

    /// The private key, made and stored on first use.
    /// - Throws: ``APIError`` `storage_failed` when the store cannot be read or written.
    public func privateKey() async throws(APIError) -> Curve25519.KeyAgreement.PrivateKey {
        if let cached { return cached }
        do {
            if let data = try await store.data(forKey: storageKey),
                let key = try? Curve25519.KeyAgreement.PrivateKey(rawRepresentation: data)
            {
                cached = key
                return key
            }
            let key = Curve25519.KeyAgreement.PrivateKey()
            try await store.set(key.rawRepresentation, forKey: storageKey)
            cached = key
            return key
        } catch {
            throw APIError(code: .storageFailed, description: "The device's mailbox key could not be kept.")
        }
    }

    /// The public half as the token request sends it: unpadded base64url of its 32 bytes.
    public func publicKeyBase64URL() async throws(APIError) -> String {
        Base64URL.encode(Array(try await privateKey().publicKey.rawRepresentation))
    }

    /// Forgets the key (sign-out, a reset of the device).
    public func reset() async {
        cached = nil
        try? await store.removeValue(forKey: storageKey)
    }
}
