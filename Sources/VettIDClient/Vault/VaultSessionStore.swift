// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
public import VettIDCore

/// Re-authenticates the vault when its session token is missing, expired or refused (401 `invalid_token`):
/// typically asks the member for the vault password and calls ``VaultService/authenticate(password:)``.
///
/// ```swift
/// let configuration = try VaultServiceConfiguration(
///     baseURL: apiURL,
///     reauthenticate: { vault in try await vault.authenticate(password: try await promptForVaultPassword()) }
/// )
/// ```
///
/// Throw to give up: the failing call then throws that error (as an ``APIError``).
public typealias VaultReauthenticator = @Sendable (VaultService) async throws -> VaultSession

/// A vault session token as the device keeps it between calls and processes (never the credential).
public struct VaultSessionToken: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The DPoP-bound session token.
    public var token: String
    /// When it expires.
    public var expiresAt: Date

    /// Creates a token record.
    public init(token: String, expiresAt: Date) {
        self.token = token
        self.expiresAt = expiresAt
    }

    /// Never shows the token.
    public var description: String { "VaultSessionToken(expires: \(expiresAt))" }

    enum CodingKeys: String, CodingKey {
        case token
        case expiresAt = "expires_at"
    }
}

/// Keeps the latest vault session token in memory and in a ``SecureStore`` (key
/// ``VaultServiceConfiguration/sessionStorageKey``), so a new process reuses an unexpired session.
///
/// Re-authentication is single-flight: concurrent calls that were refused with the same token wait for one
/// ``VaultReauthenticator`` run instead of each asking for the password.
public actor VaultSessionStore {
    /// The store key of the session item.
    public nonisolated let storageKey: String
    /// A token expiring within this margin counts as expired (default 10 s).
    public nonisolated let expiryMargin: TimeInterval
    private let store: any SecureStore
    private let clock: any WallClock
    private var cached: VaultSessionToken?
    private var loaded = false
    private var refreshing: Task<VaultSessionToken, any Error>?

    /// Creates a session store.
    public init(
        store: any SecureStore, storageKey: String, expiryMargin: TimeInterval = 10,
        clock: any WallClock = SystemWallClock()
    ) {
        self.store = store
        self.storageKey = storageKey
        self.expiryMargin = expiryMargin
        self.clock = clock
    }

    /// The latest token if it has not expired (read from the store once per process); `nil` otherwise. An
    /// unreadable item counts as no session.
    public func current() async -> VaultSessionToken? {
        if !loaded {
            loaded = true
            if cached == nil, let data = try? await store.data(forKey: storageKey) {
                cached = try? JSONDecoder().decode(VaultSessionToken.self, from: data)
            }
        }
        guard let cached, cached.expiresAt.timeIntervalSince(clock.now()) > expiryMargin else { return nil }
        return cached
    }

    /// Remembers `session`'s token (in memory at once, then in the store).
    /// - Throws: ``APIError`` `storage_failed` when the store refuses the write (the token stays usable in memory).
    public func save(_ session: VaultSession) async throws(APIError) {
        try await save(VaultSessionToken(token: session.token, expiresAt: session.expiresAt))
    }

    /// Remembers `token` (in memory at once, then in the store).
    /// - Throws: ``APIError`` `storage_failed` when the store refuses the write (the token stays usable in memory).
    public func save(_ token: VaultSessionToken) async throws(APIError) {
        cached = token
        loaded = true
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            try await store.set(try encoder.encode(token), forKey: storageKey)
        } catch {
            throw APIError(
                code: .storageFailed, description: "The vault session could not be stored.", underlying: error)
        }
    }

    /// Forgets `token` if it is still the latest one (the server refused it).
    public func invalidate(_ token: String) async {
        guard cached?.token == token else { return }
        await remove()
    }

    /// Forgets the session (memory and store); errors of the store are ignored.
    public func remove() async {
        cached = nil
        loaded = true
        try? await store.removeValue(forKey: storageKey)
    }

    /// A fresh token after `refused` failed: the newer token if another call already re-authenticated, the result
    /// of a running re-authentication, or a new run of `reauthenticate`.
    func refresh(after refused: String?, using reauthenticate: @escaping @Sendable () async throws -> VaultSession)
        async throws(APIError) -> VaultSessionToken
    {
        if let current = await current(), current.token != refused { return current }
        let task: Task<VaultSessionToken, any Error>
        if let refreshing {
            task = refreshing
        } else {
            task = Task { try await self.runReauthentication(reauthenticate) }
            refreshing = task
        }
        do {
            let token = try await task.value
            if refreshing == task { refreshing = nil }
            return token
        } catch {
            if refreshing == task { refreshing = nil }
            throw APIError.from(error)
        }
    }

    private func runReauthentication(_ reauthenticate: @Sendable () async throws -> VaultSession) async throws
        -> VaultSessionToken
    {
        let session = try await reauthenticate()
        let token = VaultSessionToken(token: session.token, expiresAt: session.expiresAt)
        // A store failure leaves the token usable in memory.
        try? await save(token)
        return token
    }
}
