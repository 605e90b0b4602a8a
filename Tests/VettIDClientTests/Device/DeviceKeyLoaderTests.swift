// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import Testing
import VettIDCrypto
import VettIDTestSupport

@testable import VettIDClient

/// A store whose writes wait until released, so that a second caller arrives while the first one stores its key:
/// the interleaving that made the Secure Enclave key store create two keys.
actor SlowWriteSecureStore: SecureStore {
    private var values: [String: Data] = [:]
    private var heldWrites: [CheckedContinuation<Void, Never>] = []
    private(set) var writes = 0
    private var holding = true

    func data(forKey key: String) async throws -> Data? { values[key] }

    func setValues(_ changes: [String: Data?]) async throws {
        writes += 1
        if holding { await withCheckedContinuation { heldWrites.append($0) } }
        for (key, value) in changes { values[key] = value }
    }

    var waitingWrites: Int { heldWrites.count }

    func release() {
        holding = false
        for write in heldWrites { write.resume() }
        heldWrites = []
    }
}

/// Counts key creations, standing in for the Secure Enclave (CryptoKit is not on Linux).
final class KeyFactory: Sendable {
    private let created = LockedValue(0)
    var count: Int { created.withLock { $0 } }

    func create() -> (stored: Data, key: DeviceKey) {
        created.withLock { $0 += 1 }
        let signer = SoftwareDPoPSigner(privateKey: P256.Signing.PrivateKey())
        return (signer.rawRepresentation, DeviceKey(signer: signer))
    }
}

@Suite("Device key single flight")
struct DeviceKeyLoaderTests {
    static func loader(store: some SecureStore, factory: KeyFactory) -> DeviceKeyLoader {
        DeviceKeyLoader { () async throws(DeviceKeyError) -> DeviceKey in
            try await PersistedDeviceKey.loadOrCreate(store: store, storageKey: "k") { stored in
                DeviceKey(signer: try SoftwareDPoPSigner(rawRepresentation: stored))
            } create: {
                factory.create()
            }
        }
    }

    @Test("concurrent first calls create one key, and the key they get is the one stored (and restored later)")
    func concurrentFirstCallsCreateOneKey() async throws {
        let store = SlowWriteSecureStore()
        let factory = KeyFactory()
        let loader = Self.loader(store: store, factory: factory)
        let first = Task { try await loader.key() }
        #expect(await eventually { await store.waitingWrites == 1 })
        // The first load is suspended storing its new key: more callers arrive.
        let others = (0..<8).map { _ in Task { try await loader.key() } }
        await store.release()
        var keys = [try await first.value]
        for other in others { keys.append(try await other.value) }
        #expect(factory.count == 1)
        #expect(await store.writes == 1)
        #expect(Set(keys.map(\.thumbprint)).count == 1)
        // A relaunch restores the stored key: the same thumbprint.
        let relaunched = Self.loader(store: store, factory: factory)
        #expect(try await relaunched.key().thumbprint == keys[0].thumbprint)
        #expect(factory.count == 1)
    }

    @Test("a failed load is not kept; the next call tries again")
    func failureIsNotCached() async throws {
        let attempts = LockedValue(0)
        let loader = DeviceKeyLoader { () async throws(DeviceKeyError) -> DeviceKey in
            let attempt = attempts.withLock { value -> Int in
                value += 1
                return value
            }
            if attempt == 1 { throw DeviceKeyError(code: .storage, message: "offline") }
            return DeviceKey(signer: SoftwareDPoPSigner())
        }
        do throws(DeviceKeyError) {
            _ = try await loader.key()
            Issue.record("expected a failure")
        } catch {
            #expect(error.code == .storage)
        }
        let key = try await loader.key()
        #expect(try await loader.key().thumbprint == key.thumbprint)
        #expect(attempts.withLock { $0 } == 2)
    }

    @Test("forget() during a load: that load's key is not cached")
    func forgetDuringLoad() async throws {
        let store = SlowWriteSecureStore()
        let factory = KeyFactory()
        let loader = Self.loader(store: store, factory: factory)
        let first = Task { try await loader.key() }
        #expect(await eventually { await store.waitingWrites == 1 })
        await loader.forget()
        await store.release()
        _ = try await first.value
        _ = try await loader.key()
        #expect(factory.count == 1, "the second load restores what the first stored")
    }

    @Test("a stored value that is not a key is reported as corrupted and left in place")
    func corruptedIsReported() async throws {
        let store = InMemorySecureStore()
        try await store.set(Data([1, 2, 3]), forKey: "k")
        let factory = KeyFactory()
        do throws(DeviceKeyError) {
            _ = try await Self.loader(store: store, factory: factory).key()
            Issue.record("expected corrupted")
        } catch {
            #expect(error.code == .corrupted)
        }
        #expect(factory.count == 0)
        #expect(try await store.data(forKey: "k") == Data([1, 2, 3]))
    }

    @Test("the software key store: concurrent first calls, one key")
    func softwareStoreSingleFlight() async throws {
        let store = SlowWriteSecureStore()
        let keys = SoftwareDeviceKeyStore(store: store)
        let first = Task { try await keys.deviceKey() }
        #expect(await eventually { await store.waitingWrites == 1 })
        let second = Task { try await keys.deviceKey() }
        await store.release()
        #expect(try await first.value.thumbprint == second.value.thumbprint)
        #expect(await store.writes == 1)
    }
}
