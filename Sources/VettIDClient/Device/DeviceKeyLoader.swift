// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// The single flight behind every ``DeviceKeyStore``: one load (or creation) of the device key at a time, shared by
/// every caller that arrives while it runs, and the result kept once it is loaded.
///
/// Without it, an actor that awaits its store between "no key yet" and "key stored" lets a second caller in: both
/// create a key, one is cached and the other persisted, and after a relaunch the thumbprint changes and every token
/// bound to it (`cnf.jkt`) stops working. A failed load is not kept (the next call tries again); ``forget()`` during a
/// load makes that load's result unused for the cache (the caller that started it still gets it).
actor DeviceKeyLoader {
    private let load: @Sendable () async throws(DeviceKeyError) -> DeviceKey
    private var cached: DeviceKey?
    private var loading: Task<DeviceKey, any Error>?

    /// A loader over `load`, which reads the key from its store or creates and stores it.
    init(load: @escaping @Sendable () async throws(DeviceKeyError) -> DeviceKey) {
        self.load = load
    }

    /// The key: the cached one, the one being loaded, or a new load.
    func key() async throws(DeviceKeyError) -> DeviceKey {
        if let cached { return cached }
        let task: Task<DeviceKey, any Error>
        if let loading {
            task = loading
        } else {
            let load = self.load
            task = Task { try await load() }
            loading = task
        }
        do {
            let key = try await task.value
            // Cache only if no forget() happened meanwhile (it clears `loading`).
            if loading == task {
                cached = key
                loading = nil
            }
            return key
        } catch {
            if loading == task { loading = nil }
            throw (error as? DeviceKeyError)
                ?? DeviceKeyError(code: .storage, message: "The device key could not be loaded.", underlying: error)
        }
    }

    /// Drops the cached key and detaches a load in progress (before the store's key is removed).
    func forget() {
        cached = nil
        loading = nil
    }
}
