import Foundation
import VettIDAttestation

/// A ``DeviceAttester`` over Apple App Attest.
///
/// - ``attestKey(challenge:deviceKeyThumbprint:)`` always creates a new App Attest key (a key can be attested only
///   once), attests it for `SHA-256(challenge ‖ jkt)`, and stores its id in the ``SecureStore`` only after success.
///   When App Attest answers `invalidKey` (code 3) it creates another key and tries once more.
/// - ``generateAssertion(challenge:deviceKeyThumbprint:)`` signs `SHA-256(challenge ‖ jkt)` with the stored key.
///   On `invalidKey` (the key died: reinstall, restore, migration) it forgets the key and throws
///   ``DeviceAttestationError/Code/invalidKey`` so the caller registers a new key and retries once.
///
/// Other `DCError` codes are reported as they are (``AppAttestErrorClassifier``) and never reset the key. On
/// Apple platforms create it with `DeviceCheckAppAttestService()`; tests inject a fake ``AppAttestService``.
public actor AppAttestAttester: DeviceAttester {
    /// Always ``DeviceAttestationFormat/appleAppAttest``.
    public nonisolated let format = DeviceAttestationFormat.appleAppAttest
    /// The store key under which the attested key id is kept.
    public nonisolated let storageKey: String
    private let service: any AppAttestService
    private let store: any SecureStore

    /// Creates an attester.
    /// - Parameters:
    ///   - service: App Attest (`DeviceCheckAppAttestService()` on Apple platforms).
    ///   - store: Where the attested key id persists.
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

    /// Creates and attests a new key (one retry with another new key on `invalidKey`).
    public func attestKey(challenge: [UInt8], deviceKeyThumbprint: [UInt8]) async throws(DeviceAttestationError)
        -> DeviceKeyAttestation
    {
        guard service.isSupported else {
            throw DeviceAttestationError(code: .unsupported, message: "App Attest is not supported on this device.")
        }
        let clientDataHash = try Self.clientDataHash(challenge: challenge, deviceKeyThumbprint: deviceKeyThumbprint)
        var attempt = 1
        while true {
            do {
                let keyID = try await service.generateKey()
                let object = try await service.attestKey(keyID, clientDataHash: clientDataHash)
                do {
                    try await store.set(Data(keyID.utf8), forKey: storageKey)
                } catch {
                    throw DeviceAttestationError(
                        code: .storage, message: "The App Attest key id could not be stored.", underlying: error)
                }
                return DeviceKeyAttestation(format: format, keyID: keyID, attestationObject: object)
            } catch let error as DeviceAttestationError {
                throw error
            } catch {
                let code = AppAttestErrorClassifier.code(for: error)
                if code == .invalidKey, attempt == 1 {
                    attempt += 1
                    continue
                }
                throw DeviceAttestationError(
                    code: code, message: "App Attest could not attest a key.", underlying: error)
            }
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

    /// Forgets the stored key id.
    public func resetKey() async throws(DeviceAttestationError) {
        do {
            try await store.removeValue(forKey: storageKey)
        } catch {
            throw DeviceAttestationError(
                code: .storage, message: "The App Attest key id could not be removed.", underlying: error)
        }
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
