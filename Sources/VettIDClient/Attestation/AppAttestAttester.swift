// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import VettIDAttestation

/// A ``DeviceAttester`` over Apple App Attest.
///
/// - ``attestKey(challenge:deviceKeyThumbprint:)`` creates a new App Attest key (a key can be attested only once),
///   records its id as *pending* in the ``SecureStore`` before asking Apple to attest it for
///   `SHA-256(challenge ‖ jkt)`, and on success stores it as the attested key (and drops the pending id) in one
///   write. When App Attest answers `serverUnavailable` (code 4) the pending key is kept and the error is reported:
///   Apple asks to try again later with the same key (and the same client data hash, i.e. the same challenge), and
///   the next call, even after a relaunch, attests the pending key instead of creating another one. When App Attest
///   answers `invalidKey` (code 3: the key is gone, or was attested already) the pending id is dropped and one more
///   attempt is made with a new key.
/// - ``generateAssertion(challenge:deviceKeyThumbprint:)`` signs `SHA-256(challenge ‖ jkt)` with the stored key.
///   On `invalidKey` (the key died: reinstall, restore, migration) it forgets the key and throws
///   `DeviceAttestationError.Code.invalidKey` so the caller registers a new key and retries once.
///
/// Other `DCError` codes are reported as they are (``AppAttestErrorClassifier``) and never reset the key. On
/// Apple platforms create it with `DeviceCheckAppAttestService()`; tests inject a fake ``AppAttestService``.
/// App Attest exists only on iPhone and iPad: ``VettID`` never picks this attester on a Mac
/// (``PlatformCapabilities``).
public actor AppAttestAttester: DeviceAttester {
    /// Always ``DeviceAttestationFormat/appleAppAttest``.
    public nonisolated let format = DeviceAttestationFormat.appleAppAttest
    /// The store key under which the attested key id is kept.
    public nonisolated let storageKey: String
    /// The store key under which a generated key id waits for its attestation (``storageKey`` + `.pending`).
    public nonisolated var pendingStorageKey: String { storageKey + ".pending" }
    private let service: any AppAttestService
    private let store: any SecureStore

    /// Creates an attester.
    /// - Parameters:
    ///   - service: App Attest (`DeviceCheckAppAttestService()` on Apple platforms).
    ///   - store: Where the attested and the pending key ids persist.
    ///   - storageKey: The store key (default `vettid.appattest.key-id`).
    public init(service: any AppAttestService, store: any SecureStore, storageKey: String = "vettid.appattest.key-id") {
        self.service = service
        self.store = store
        self.storageKey = storageKey
    }

    /// The stored key id, or `nil`.
    public func attestedKeyID() async throws(DeviceAttestationError) -> String? {
        do {
            guard let data = try await store.data(forKey: storageKey) else { return nil }
            return String(decoding: data, as: UTF8.self)
        } catch {
            throw DeviceAttestationError(
                code: .storage, message: "The App Attest key id could not be read.", underlying: error)
        }
    }

    /// The id of a generated key whose attestation has not succeeded yet (kept after `serverUnavailable`), or `nil`.
    public func pendingKeyID() async throws(DeviceAttestationError) -> String? {
        do {
            guard let data = try await store.data(forKey: pendingStorageKey) else { return nil }
            return String(decoding: data, as: UTF8.self)
        } catch {
            throw DeviceAttestationError(
                code: .storage, message: "The pending App Attest key id could not be read.", underlying: error)
        }
    }

    /// Attests the pending key, or a new one (one more attempt with a new key on `invalidKey`).
    public func attestKey(challenge: [UInt8], deviceKeyThumbprint: [UInt8]) async throws(DeviceAttestationError)
        -> DeviceKeyAttestation
    {
        guard service.isSupported else {
            throw DeviceAttestationError(code: .unsupported, message: "App Attest is not supported on this device.")
        }
        let clientDataHash = try Self.clientDataHash(challenge: challenge, deviceKeyThumbprint: deviceKeyThumbprint)
        var pending = try await pendingKeyID()
        var retried = false
        while true {
            let keyID: String
            if let pending {
                keyID = pending
            } else {
                keyID = try await generatePendingKey()
            }
            let object: Data
            do {
                object = try await service.attestKey(keyID, clientDataHash: clientDataHash)
            } catch {
                let code = AppAttestErrorClassifier.code(for: error)
                if code == .invalidKey {
                    try await write([pendingStorageKey: nil], "The pending App Attest key id could not be removed.")
                    pending = nil
                    if !retried {
                        retried = true
                        continue
                    }
                }
                throw DeviceAttestationError(
                    code: code,
                    message: code == .serverUnavailable
                        ? "Apple's App Attest service is unavailable; try again later (the same key will be attested)."
                        : "App Attest could not attest a key.",
                    underlying: error)
            }
            try await write(
                [storageKey: Data(keyID.utf8), pendingStorageKey: nil], "The App Attest key id could not be stored.")
            return DeviceKeyAttestation(format: format, keyID: keyID, attestationObject: object)
        }
    }

    /// Generates a key and records it as pending before it is attested.
    private func generatePendingKey() async throws(DeviceAttestationError) -> String {
        let keyID: String
        do {
            keyID = try await service.generateKey()
        } catch {
            throw DeviceAttestationError(
                code: AppAttestErrorClassifier.code(for: error), message: "App Attest could not create a key.",
                underlying: error)
        }
        try await write([pendingStorageKey: Data(keyID.utf8)], "The new App Attest key id could not be stored.")
        return keyID
    }

    private func write(_ values: [String: Data?], _ failure: String) async throws(DeviceAttestationError) {
        do {
            try await store.setValues(values)
        } catch {
            throw DeviceAttestationError(code: .storage, message: failure, underlying: error)
        }
    }

    /// Signs an assertion with the stored key; on `invalidKey` forgets the key and throws `invalid_key`.
    public func generateAssertion(challenge: [UInt8], deviceKeyThumbprint: [UInt8]) async throws(DeviceAttestationError)
        -> DeviceKeyAssertion
    {
        guard let keyID = try await attestedKeyID() else {
            throw DeviceAttestationError(code: .keyNotAttested, message: "No App Attest key has been attested yet.")
        }
        let clientDataHash = try Self.clientDataHash(challenge: challenge, deviceKeyThumbprint: deviceKeyThumbprint)
        do {
            let assertion = try await service.generateAssertion(keyID, clientDataHash: clientDataHash)
            return DeviceKeyAssertion(format: format, keyID: keyID, assertion: assertion)
        } catch {
            let code = AppAttestErrorClassifier.code(for: error)
            if code == .invalidKey {
                try await resetKey()
            }
            throw DeviceAttestationError(
                code: code, message: "App Attest could not sign an assertion.", underlying: error)
        }
    }

    /// Forgets the stored key id (and a pending one).
    public func resetKey() async throws(DeviceAttestationError) {
        try await write([storageKey: nil, pendingStorageKey: nil], "The App Attest key id could not be removed.")
    }

    static func clientDataHash(challenge: [UInt8], deviceKeyThumbprint: [UInt8]) throws(DeviceAttestationError) -> Data
    {
        guard !challenge.isEmpty,
            let hash = AppAttestClientDataHash.binding(challenge: challenge, keyThumbprint: deviceKeyThumbprint)
        else {
            throw DeviceAttestationError(
                code: .invalidChallenge, message: "The challenge is empty or the key thumbprint is not 32 bytes.")
        }
        return Data(hash.bytes)
    }
}
