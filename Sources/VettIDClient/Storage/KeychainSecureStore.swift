#if canImport(Security)
    public import Foundation
    import Security

    /// A ``SecureStore`` in the Apple keychain (iOS, macOS). On Linux it is type-checked against Tests/AppleAPIShims
    /// (scripts/check-apple-only) but never run.
    ///
    /// All items of one store live in a single generic-password item (service ``service``, account ``account``)
    /// whose data is the JSON-encoded item set. A write replaces that one item with `SecItemUpdate` (or adds it),
    /// so ``setValues(_:)`` is atomic across keys. The item is accessible after first unlock, on this device only,
    /// and never synchronised to iCloud.
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
                throw SecureStoreError(code: .keychain, message: "Reading the keychain item failed.", status: status)
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
            let updateStatus = SecItemUpdate(baseQuery() as CFDictionary, attributes as CFDictionary)
            if updateStatus == errSecSuccess { return }
            guard updateStatus == errSecItemNotFound else {
                throw SecureStoreError(
                    code: .keychain, message: "Updating the keychain item failed.", status: updateStatus)
            }
            var addQuery = baseQuery()
            for (key, value) in attributes { addQuery[key] = value }
            let addStatus = SecItemAdd(addQuery as CFDictionary, nil)
            guard addStatus == errSecSuccess else {
                throw SecureStoreError(code: .keychain, message: "Adding the keychain item failed.", status: addStatus)
            }
        }
    }
#endif
