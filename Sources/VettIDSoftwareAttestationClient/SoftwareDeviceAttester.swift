// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import VettIDAttestation
public import VettIDClient
public import VettIDCore
public import VettIDSoftwareAttestation

/// A `DeviceAttester` producing App Attest-format attestations and assertions with a software key under a
/// `SoftwareAttestationAuthority`, so the server's full App Attest verifier runs off Apple hardware (Linux,
/// simulators, CI).
///
/// The server accepts these only when it trusts the authority's root (development and CI deployments). The
/// attested key and its assertion counter persist in the `SecureStore`; the counter is incremented and
/// stored before each assertion is returned, so it strictly increases as a real device's does.
public actor SoftwareDeviceAttester: DeviceAttester {
    /// Always `DeviceAttestationFormat.software`.
    public nonisolated let format = DeviceAttestationFormat.software
    /// The prefix of the store keys (`<prefix>.key`, `<prefix>.counter`).
    public nonisolated let storageKeyPrefix: String
    private let attester: SoftwareAttester
    private let store: any SecureStore
    private let clock: any WallClock

    /// Creates an attester.
    /// - Parameters:
    ///   - attester: Builds the objects (authority, `"<TeamID>.<bundleID>"`, environment).
    ///   - store: Where the attested key and counter persist.
    ///   - storageKeyPrefix: The store key prefix (default `vettid.software-attester`).
    ///   - clock: The clock for certificate validity.
    public init(
        attester: SoftwareAttester,
        store: any SecureStore,
        storageKeyPrefix: String = "vettid.software-attester",
        clock: any WallClock = SystemWallClock()
    ) {
        self.attester = attester
        self.store = store
        self.storageKeyPrefix = storageKeyPrefix
        self.clock = clock
    }

    private var keyStorageKey: String { "\(storageKeyPrefix).key" }
    private var counterStorageKey: String { "\(storageKeyPrefix).counter" }

    /// The attested key's id, or `nil`.
    public func attestedKeyID() async throws(DeviceAttestationError) -> String? {
        try await storedKey()?.keyIDBase64
    }

    /// Creates a new software key and attests it for `SHA-256(challenge ‖ jkt)`.
    public func attestKey(challenge: [UInt8], deviceKeyThumbprint: [UInt8]) async throws(DeviceAttestationError)
        -> DeviceKeyAttestation
    {
        guard !challenge.isEmpty,
            let clientDataHash = AppAttestClientDataHash.binding(
                challenge: challenge, keyThumbprint: deviceKeyThumbprint)
        else {
            throw DeviceAttestationError(
                code: .invalidChallenge, message: "The challenge is empty or the key thumbprint is not 32 bytes.")
        }
        let key = SoftwareAttestationKey()
        let object: [UInt8]
        do {
            object = try attester.attestKey(key, clientDataHash: clientDataHash.bytes, now: clock.now())
        } catch {
            throw DeviceAttestationError(
                code: .systemFailure, message: "The software attester failed.", underlying: error)
        }
        do {
            try await store.setValues([
                keyStorageKey: key.privateKey.rawRepresentation, counterStorageKey: Self.encode(0),
            ])
        } catch {
            throw DeviceAttestationError(
                code: .storage, message: "The attested key could not be stored.", underlying: error)
        }
        return DeviceKeyAttestation(format: format, keyID: key.keyIDBase64, attestationObject: Data(object))
    }

    /// Signs an assertion whose client data is `challenge ‖ jkt` (so its hash is the binding) with the next counter.
    public func generateAssertion(challenge: [UInt8], deviceKeyThumbprint: [UInt8]) async throws(DeviceAttestationError)
        -> DeviceKeyAssertion
    {
        guard !challenge.isEmpty, deviceKeyThumbprint.count == 32 else {
            throw DeviceAttestationError(
                code: .invalidChallenge, message: "The challenge is empty or the key thumbprint is not 32 bytes.")
        }
        guard let key = try await storedKey() else {
            throw DeviceAttestationError(code: .keyNotAttested, message: "No software key has been attested yet.")
        }
        let counter: UInt32
        do {
            let stored = try await store.data(forKey: counterStorageKey).flatMap(Self.decode) ?? 0
            guard stored < UInt32.max else {
                throw DeviceAttestationError(code: .invalidKey, message: "The assertion counter is exhausted.")
            }
            counter = stored + 1
            try await store.set(Self.encode(counter), forKey: counterStorageKey)
        } catch let error as DeviceAttestationError {
            throw error
        } catch {
            throw DeviceAttestationError(
                code: .storage, message: "The assertion counter could not be stored.", underlying: error)
        }
        do {
            let assertion = try attester.generateAssertion(
                key, clientData: challenge + deviceKeyThumbprint, counter: counter)
            return DeviceKeyAssertion(format: format, keyID: key.keyIDBase64, assertion: Data(assertion))
        } catch {
            throw DeviceAttestationError(
                code: .systemFailure, message: "The software attester failed.", underlying: error)
        }
    }

    /// Forgets the attested key and its counter.
    public func resetKey() async throws(DeviceAttestationError) {
        do {
            try await store.setValues([keyStorageKey: nil, counterStorageKey: nil])
        } catch {
            throw DeviceAttestationError(
                code: .storage, message: "The attested key could not be removed.", underlying: error)
        }
    }

    private func storedKey() async throws(DeviceAttestationError) -> SoftwareAttestationKey? {
        let data: Data?
        do {
            data = try await store.data(forKey: keyStorageKey)
        } catch {
            throw DeviceAttestationError(
                code: .storage, message: "The attested key could not be read.", underlying: error)
        }
        guard let data else { return nil }
        guard let privateKey = try? P256.Signing.PrivateKey(rawRepresentation: data) else {
            throw DeviceAttestationError(code: .invalidKey, message: "The stored attested key is not a P-256 key.")
        }
        return SoftwareAttestationKey(privateKey: privateKey)
    }

    private static func encode(_ counter: UInt32) -> Data {
        Data((0..<4).map { UInt8(truncatingIfNeeded: counter >> (24 - 8 * $0)) })
    }

    private static func decode(_ data: Data) -> UInt32? {
        guard data.count == 4 else { return nil }
        return data.reduce(0) { $0 << 8 | UInt32($1) }
    }
}
