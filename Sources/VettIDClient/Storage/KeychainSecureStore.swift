// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

#if canImport(Security)
    public import Foundation
    import Security

    /// A ``SecureStore`` in the Apple keychain (iOS, macOS). On Linux it is type-checked against Tests/AppleAPIShims
    /// (scripts/check-apple-only) but never run.
    ///
    /// All items of one store live in a single generic-password item (service ``service``, account ``account``)
    /// whose data is the JSON-encoded item set. A write replaces that one item with `SecItemUpdate` (or adds it),
    /// so ``setValues(_:)`` is atomic across keys. A racing writer (another store over the same item, an app
    /// extension in the same access group) is handled by ``KeychainWritePlan``: an add that finds the item added
    /// meanwhile (`errSecDuplicateItem`) becomes an update, an update that finds it deleted becomes an add, a bounded
    /// number of times. The item is accessible after first unlock, on this device only, and never synchronised to
    /// iCloud.
    ///
    /// It uses the data protection keychain (`kSecUseDataProtectionKeychain`), which needs a signed app with a
    /// keychain entitlement (an application identifier or `keychain-access-groups`). An unsigned process, such as a
    /// command-line tool on macOS, gets `errSecMissingEntitlement` (-34018), reported as
    /// ``SecureStoreError/Code/missingEntitlement``; ``VettID`` gives processes outside an app bundle an
    /// ``EncryptedFileSecureStore`` instead (``PlatformCapabilities/storeKind``, docs/ios.md).
    public actor KeychainSecureStore: SecureStore {
        /// The keychain service (`kSecAttrService`).
        public nonisolated let service: String
        /// The keychain account (`kSecAttrAccount`).
        public nonisolated let account: String
        /// The keychain access group, if the app shares items with extensions.
        public nonisolated let accessGroup: String?

        /// Creates a store.
        /// - Parameters:
        ///   - service: The keychain service, e.g. the bundle identifier.
        ///   - account: The item's account name.
        ///   - accessGroup: An access group shared with app extensions, or `nil`.
        public init(service: String, account: String = "vettid.secure-store", accessGroup: String? = nil) {
            self.service = service
            self.account = account
            self.accessGroup = accessGroup
            assert(
                KeychainWritePlan.success == errSecSuccess && KeychainWritePlan.itemNotFound == errSecItemNotFound
                    && KeychainWritePlan.duplicateItem == errSecDuplicateItem
                    && KeychainWritePlan.missingEntitlement == errSecMissingEntitlement,
                "KeychainWritePlan's status codes are Security's")
        }

        /// The value for `key`.
        public func data(forKey key: String) async throws -> Data? {
            try loadItems()[key]
        }

        /// Applies all changes in one keychain write.
        public func setValues(_ values: [String: Data?]) async throws {
            var items = try loadItems()
            for (key, value) in values {
                items[key] = value
            }
            try saveItems(items)
        }

        private func baseQuery() -> [String: Any] {
            var query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: service,
                kSecAttrAccount as String: account,
                kSecUseDataProtectionKeychain as String: true,
            ]
            if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
            return query
        }

        private func loadItems() throws -> [String: Data] {
            var query = baseQuery()
            query[kSecReturnData as String] = true
            query[kSecMatchLimit as String] = kSecMatchLimitOne
            var result: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            if status == errSecItemNotFound { return [:] }
            guard status == errSecSuccess, let data = result as? Data else {
                throw Self.failure("Reading the keychain item failed.", status: status)
            }
            do {
                return try JSONDecoder().decode([String: Data].self, from: data)
            } catch {
                throw SecureStoreError(
                    code: .corrupted, message: "The keychain item cannot be decoded.", underlying: error)
            }
        }

        private func saveItems(_ items: [String: Data]) throws {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let data = try encoder.encode(items)
            let attributes: [String: Any] = [
                kSecValueData as String: data,
                kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
            ]
            var addQuery = baseQuery()
            for (key, value) in attributes { addQuery[key] = value }
            var plan = KeychainWritePlan()
            var step = plan.start()
            while true {
                let status =
                    switch step {
                    case .update: SecItemUpdate(baseQuery() as CFDictionary, attributes as CFDictionary)
                    case .add: SecItemAdd(addQuery as CFDictionary, nil)
                    }
                switch plan.next(after: step, status: status) {
                case .done:
                    return
                case .perform(let next):
                    step = next
                case .fail(let failed, let status):
                    throw Self.failure(
                        failed == .update ? "Updating the keychain item failed." : "Adding the keychain item failed.",
                        status: status)
                }
            }
        }

        private static func failure(_ message: String, status: OSStatus) -> SecureStoreError {
            guard status == KeychainWritePlan.missingEntitlement else {
                return SecureStoreError(code: .keychain, message: message, status: status)
            }
            return SecureStoreError(
                code: .missingEntitlement,
                message: message
                    + " This process has no keychain entitlement (an unsigned tool?); use an EncryptedFileSecureStore.",
                status: status)
        }
    }
#endif
