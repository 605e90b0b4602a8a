// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
import VettIDCore

/// Holds the member's tokens, persists them in a ``SecureStore``, and refreshes them with single flight.
///
/// However many requests fail with 401 at the same time, at most one `POST /auth/refresh` is in flight: every
/// caller of ``refresh(rejectedAccessToken:)`` awaits the same task. A caller whose rejected token is already
/// older than the current one gets the current tokens without a new refresh.
public actor TokenSession {
    /// Exchanges a refresh token for new tokens (calls `POST /auth/refresh`).
    public typealias Refresher = @Sendable (_ refreshToken: String) async throws -> SessionTokens

    /// The store key under which the tokens are kept.
    public nonisolated let storageKey: String
    private let store: any SecureStore
    private var tokens: SessionTokens?
    private var refresher: Refresher?
    private var inFlight: Task<SessionTokens, any Error>?
    private var refreshCount = 0

    /// Creates a session over a store.
    /// - Parameters:
    ///   - store: Where the tokens persist.
    ///   - storageKey: The store key for the tokens.
    ///   - refresher: How to refresh; can also be set later with ``setRefresher(_:)``.
    public init(store: any SecureStore, storageKey: String = "vettid.session.tokens", refresher: Refresher? = nil) {
        self.store = store
        self.storageKey = storageKey
        self.refresher = refresher
    }

    /// Sets how tokens are refreshed.
    public func setRefresher(_ refresher: @escaping Refresher) {
        self.refresher = refresher
    }

    /// The current tokens, if signed in.
    public var current: SessionTokens? { tokens }

    /// How many refreshes this session has started (for diagnostics and tests).
    public var refreshesStarted: Int { refreshCount }

    /// Loads the tokens from the store (at app start). A stored value that cannot be decoded is removed.
    @discardableResult
    public func restore() async throws -> SessionTokens? {
        guard let data = try await store.data(forKey: storageKey) else {
            tokens = nil
            return nil
        }
        do {
            let decoded = try JSONDecoder().decode(SessionTokens.self, from: data)
            tokens = decoded
            return decoded
        } catch {
            try await store.removeValue(forKey: storageKey)
            tokens = nil
            return nil
        }
    }

    /// Replaces the tokens and persists them, together with `extraItems`, in one atomic store write.
    /// - Parameters:
    ///   - newTokens: The tokens to keep.
    ///   - extraItems: Other items to write in the same transaction (`nil` values remove the key).
    public func update(_ newTokens: SessionTokens, extraItems: [String: Data?] = [:]) async throws {
        var items = extraItems
        items[storageKey] = try JSONEncoder().encode(newTokens)
        try await store.setValues(items)
        tokens = newTokens
    }

    /// Forgets the tokens and removes them (and `extraKeys`) from the store in one atomic write.
    public func clear(extraKeys: [String] = []) async throws {
        tokens = nil
        var items: [String: Data?] = [storageKey: nil]
        for key in extraKeys { items[key] = .some(nil) }
        try await store.setValues(items)
    }

    /// Refreshes the tokens once for all concurrent callers.
    ///
    /// - Parameter rejectedAccessToken: The access token the server refused; if the session already holds a
    ///   different one, that one is returned without refreshing.
    /// - Returns: The current tokens after the refresh.
    /// - Throws: ``APIError`` `APIError.notAuthenticated` without a refresh token, or the refresh failure.
    ///   An `invalid_grant` or `invalid_token` answer clears the session.
    public func refresh(rejectedAccessToken: String?) async throws -> SessionTokens {
        if let inFlight {
            return try await inFlight.value
        }
        if let tokens, let rejectedAccessToken, tokens.accessToken != rejectedAccessToken {
            return tokens
        }
        guard let refreshToken = tokens?.refreshToken else {
            throw APIError(code: .notAuthenticated, description: "There is no session to refresh.")
        }
        guard let refresher else {
            throw APIError(code: .notAuthenticated, description: "This session cannot be refreshed.")
        }
        refreshCount += 1
        // The task does the whole refresh, persistence included, so that every waiter resumes only once the
        // new tokens are current (or the session is cleared).
        let task = Task { try await self.performRefresh(refreshToken: refreshToken, refresher: refresher) }
        inFlight = task
        defer { inFlight = nil }
        return try await task.value
    }

    private func performRefresh(refreshToken: String, refresher: Refresher) async throws -> SessionTokens {
        do {
            let newTokens = try await refresher(refreshToken)
            try await update(newTokens)
            return newTokens
        } catch {
            let apiError = APIError.from(error)
            if apiError.code == .invalidGrant || apiError.code == .invalidToken {
                try? await clear()
            }
            throw apiError
        }
    }
}
