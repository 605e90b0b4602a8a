// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// How ``KeychainSecureStore`` writes its one keychain item when other writers may race it (another store instance
/// over the same service and account, an app extension sharing the access group): update the item; if it is not
/// there, add it; if an add finds that a racing writer added it meanwhile (`errSecDuplicateItem`), update again; if
/// an update finds that a racing delete removed it (`errSecItemNotFound`), add again. At most
/// ``maximumAttempts`` keychain calls, then the write fails with the last status.
///
/// A plain value over `OSStatus` codes, so the decisions are tested on every platform; the Apple-only store only
/// calls `SecItemUpdate` or `SecItemAdd` as told.
struct KeychainWritePlan: Sendable {
    /// One keychain call.
    enum Step: Equatable, Sendable {
        /// `SecItemUpdate` of the existing item.
        case update
        /// `SecItemAdd` of a new item.
        case add
    }

    /// What to do after a call returned a status.
    enum Decision: Equatable, Sendable {
        /// Make this call next.
        case perform(Step)
        /// The item is written.
        case done
        /// The write failed: `status` is what the last call returned.
        case fail(Step, status: Int32)
    }

    /// `errSecSuccess`.
    static let success: Int32 = 0
    /// `errSecItemNotFound`.
    static let itemNotFound: Int32 = -25300
    /// `errSecDuplicateItem`.
    static let duplicateItem: Int32 = -25299
    /// `errSecMissingEntitlement`: the process has no keychain entitlements (an unsigned command-line tool on macOS
    /// using the data protection keychain).
    static let missingEntitlement: Int32 = -34018

    /// Keychain calls before giving up (an update and an add, twice).
    let maximumAttempts: Int
    /// Calls made so far.
    private(set) var attempts = 0

    /// A plan that gives up after `maximumAttempts` calls.
    init(maximumAttempts: Int = 4) {
        self.maximumAttempts = max(2, maximumAttempts)
    }

    /// The first call: an update (the item usually exists).
    mutating func start() -> Step {
        attempts = 1
        return .update
    }

    /// The next call after `step` returned `status`.
    mutating func next(after step: Step, status: Int32) -> Decision {
        if status == Self.success { return .done }
        let retry: Step
        switch (step, status) {
        case (.update, Self.itemNotFound): retry = .add
        case (.add, Self.duplicateItem): retry = .update
        default: return .fail(step, status: status)
        }
        guard attempts < maximumAttempts else { return .fail(step, status: status) }
        attempts += 1
        return .perform(retry)
    }
}
