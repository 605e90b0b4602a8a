// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
public import Logging
public import Observation
public import OpenAPIRuntime
import VettIDAPI
public import VettIDCore

/// Observable member authentication state for apps and the CLI.
///
/// `AuthManager` keeps the session in a ``SecureStore`` so that it survives restarts: call
/// ``restoreSession()`` at start, then ``login(email:password:)``, ``register(email:password:firstName:lastName:)``,
/// ``logout()`` and ``checkAuthStatus()``. Requests made through ``apiClient`` carry the session's token and
/// refresh it on 401 (single flight). When the server says the session is invalid (401 `invalid_token`, or
/// 400 `invalid_grant` on refresh) the manager signs out and clears the store.
///
/// The session is bound to the device key by default (DPoP, RFC 9449; see ``SessionBinding``): login and refresh
/// carry a proof, the server issues `token_type: DPoP` tokens, and requests go out as `Authorization: DPoP` with a
/// proof carrying `ath`; server nonces are remembered per origin. Bearer tokens only with
/// ``SessionBinding/bearer``.
///
/// ```swift
/// let auth = try AuthManager(configuration: .init(baseURL: URL(string: "https://api.example.com")!,
///                                                 store: store))
/// await auth.restoreSession()
/// if !auth.isAuthenticated { try await auth.login(email: email, password: password) }
/// ```
@Observable
@MainActor
public final class AuthManager {
    /// What an ``AuthManager`` needs.
    public struct Configuration: Sendable {
        /// How to reach the server.
        public let api: APIClientConfiguration
        /// Where the session persists.
        public let store: any SecureStore
        /// Prefix of the store keys (`<prefix>.tokens`, `<prefix>.user`).
        public let storageKeyPrefix: String
        /// The device key that binds the session (login and refresh carry a proof by it, so the server issues
        /// `token_type: DPoP` tokens, and every authenticated request carries `Authorization: DPoP` plus a proof),
        /// or `nil` for bearer tokens.
        public let deviceKeyStore: (any DeviceKeyStore)?

        /// Creates a configuration from an API configuration.
        /// - Parameters:
        ///   - api: How to reach the server: base URL, transport, logger, retry policy and proof provider.
        ///   - store: Where the session persists.
        ///   - storageKeyPrefix: Prefix of the store keys (`<prefix>.tokens`, `<prefix>.user`).
        ///   - deviceKeyStore: Informational here: `api` must already carry the matching proof provider
        ///     (use the `baseURL:` initializer to have it wired).
        public init(
            api: APIClientConfiguration,
            store: any SecureStore,
            storageKeyPrefix: String = "vettid.session",
            deviceKeyStore: (any DeviceKeyStore)? = nil
        ) {
            self.api = api
            self.store = store
            self.storageKeyPrefix = storageKeyPrefix
            self.deviceKeyStore = deviceKeyStore
        }

        /// Creates a configuration; the base URL must have an `http`/`https` scheme and a host.
        ///
        /// The session is bound to the device key by default (``SessionBinding/platformDeviceKey``): a
        /// ``DeviceDPoPProofProvider`` signs the proofs and the transport is wrapped in a ``DPoPNonceTransport``,
        /// so server nonces are remembered per origin and a `use_dpop_nonce` answer is retried once. Pass
        /// ``SessionBinding/bearer`` for plain bearer tokens. An explicit `proofProvider` replaces the device key's
        /// proofs (tests). Pass the `nonceStore` the app's ``VaultService`` and ``GateClient`` for the same server
        /// use, so a nonce one of them received goes into the others' next proof.
        /// - Throws: ``ConfigurationError`` for an invalid base URL.
        public init(
            baseURL: URL,
            store: any SecureStore,
            binding: SessionBinding = .platformDeviceKey,
            transport: (any ClientTransport)? = nil,
            logger: Logger = Logger(label: "dev.vettid.auth"),
            retryPolicy: RetryPolicy = .default,
            proofProvider: (any DPoPProofProvider)? = nil,
            storageKeyPrefix: String = "vettid.session",
            nonceStore: DPoPNonceStore = DPoPNonceStore(),
            clock: any WallClock = SystemWallClock()
        ) throws {
            var transport = transport
            var proofProvider = proofProvider
            let deviceKeyStore = proofProvider == nil ? binding.deviceKeyStore(store: store) : nil
            if let deviceKeyStore {
                let deviceProofs = DeviceDPoPProofProvider(
                    keyStore: deviceKeyStore, nonceStore: nonceStore, clock: clock)
                proofProvider = deviceProofs
                transport = DPoPNonceTransport(
                    base: transport ?? DefaultTransport.make(),
                    middleware: DPoPNonceMiddleware(proofProvider: deviceProofs)
                )
            }
            let api = try APIClientConfiguration(
                baseURL: baseURL,
                transport: transport,
                logger: logger,
                retryPolicy: retryPolicy,
                proofProvider: proofProvider
            )
            self.init(api: api, store: store, storageKeyPrefix: storageKeyPrefix, deviceKeyStore: deviceKeyStore)
        }
    }

    /// The signed-in member, or `nil`.
    public private(set) var currentUser: AuthenticatedUser?
    /// Whether an operation is running.
    public internal(set) var isLoading = false
    /// The last failure, cleared by the next success.
    public internal(set) var error: APIError?
    /// Whether a member is signed in.
    public var isAuthenticated: Bool { currentUser != nil }

    /// The HTTP client carrying this session's credentials (for the other endpoints).
    @ObservationIgnored public nonisolated let apiClient: APIClient
    @ObservationIgnored private nonisolated let store: any SecureStore
    @ObservationIgnored private nonisolated let userKey: String
    @ObservationIgnored private nonisolated let logger: Logger

    /// Creates a manager. Nothing is read until ``restoreSession()``.
    public init(configuration: Configuration) {
        let session = TokenSession(
            store: configuration.store,
            storageKey: "\(configuration.storageKeyPrefix).tokens",
            refresher: APIClient.makeRefresher(configuration: configuration.api)
        )
        self.apiClient = APIClient(configuration: configuration.api, session: session)
        self.store = configuration.store
        self.userKey = "\(configuration.storageKeyPrefix).user"
        self.logger = configuration.api.logger
    }

    private nonisolated var session: TokenSession { apiClient.session }

    /// Restores the stored session (tokens and user) and verifies it with the server.
    ///
    /// Offline, the stored user stays signed in and ``error`` reports the network failure; an invalid session
    /// is cleared.
    public func restoreSession() async {
        isLoading = true
        defer { isLoading = false }
        do {
            guard try await session.restore() != nil else {
                currentUser = nil
                return
            }
            if let data = try await store.data(forKey: userKey),
                let user = try? JSONDecoder().decode(AuthenticatedUser.self, from: data)
            {
                currentUser = user
            }
        } catch {
            logger.warning("Restoring the session failed", metadata: ["error.type": "\(type(of: error))"])
            self.error = APIError(
                code: .notAuthenticated, description: "The stored session cannot be read.", underlying: error)
            currentUser = nil
            return
        }
        await verifySession()
    }

    /// Creates an account, then logs in with the same credentials.
    /// - Parameters:
    ///   - email: The member's email address.
    ///   - password: The password; the server checks its policy and answers `weak_password` with reasons.
    ///   - firstName: Optional, at most 100 characters.
    ///   - lastName: Optional, at most 100 characters.
    /// - Throws: ``APIError`` (e.g. `invalid_email`, `weak_password` with reasons, `email_taken`).
    public func register(
        email: String, password: String, firstName: String? = nil, lastName: String? = nil
    ) async throws(APIError) {
        isLoading = true
        defer { isLoading = false }
        do throws(APIError) {
            let output = try await apiClient.perform { client in
                try await client.register(
                    body: .json(.init(email: email, password: password, firstName: firstName, lastName: lastName)))
            }
            guard case .created = output else {
                throw APIError(code: .invalidResponse, description: "Unexpected answer to register.")
            }
            try await performLogin(email: email, password: password)
        } catch {
            self.error = error
            throw error
        }
    }

    /// Logs in and stores the session.
    /// - Throws: ``APIError`` (`invalid_credentials`, `rate_limited` with ``APIError/retryAfter``, ...).
    public func login(email: String, password: String) async throws(APIError) {
        isLoading = true
        defer { isLoading = false }
        do throws(APIError) {
            try await performLogin(email: email, password: password)
        } catch {
            self.error = error
            throw error
        }
    }

    private func performLogin(email: String, password: String) async throws(APIError) {
        let output = try await apiClient.perform { client in
            try await client.login(body: .json(.init(email: email, password: password)))
        }
        guard case .ok(let ok) = output, case .json(let body) = ok.body else {
            throw APIError(code: .invalidResponse, description: "Unexpected answer to login.")
        }
        try await adopt(body, setCookie: ok.headers.setCookie)
    }

    /// Stores the session a sign-in issued (password or passkey) and signs its member in.
    func adopt(_ body: Components.Schemas.TokenResponse, setCookie: String?) async throws(APIError) {
        let user = AuthenticatedUser(body.user)
        do {
            let tokens = try SessionTokens(tokenResponse: body, setCookie: setCookie)
            try await session.update(tokens, extraItems: [userKey: try JSONEncoder().encode(user)])
        } catch {
            throw APIError.unwrap(error)
                ?? APIError(code: .notAuthenticated, description: "The session could not be stored.", underlying: error)
        }
        currentUser = user
        self.error = nil
    }

    /// Logs out: revokes the session on the server when reachable, and always clears it locally.
    public func logout() async {
        isLoading = true
        defer { isLoading = false }
        if await session.current != nil {
            do {
                _ = try await apiClient.perform { client in try await client.logout() }
            } catch {
                logger.info(
                    "Server logout failed; clearing the local session", metadata: ["error.code": "\(error.code)"])
            }
        }
        await clearLocalSession()
        self.error = nil
    }

    /// Asks the server who is signed in (refreshing the token if needed) and updates ``currentUser``.
    public func checkAuthStatus() async {
        isLoading = true
        defer { isLoading = false }
        await verifySession()
    }

    /// Clears ``error``.
    public func clearError() {
        error = nil
    }

    private func verifySession() async {
        guard await session.current != nil else {
            currentUser = nil
            return
        }
        do throws(APIError) {
            let output = try await apiClient.perform { client in try await client.getCurrentUser() }
            guard case .ok(let ok) = output, case .json(let body) = ok.body else {
                throw APIError(code: .invalidResponse, description: "Unexpected answer to the current-user request.")
            }
            let user = AuthenticatedUser(body)
            if user != currentUser, let encoded = try? JSONEncoder().encode(user) {
                try? await store.set(encoded, forKey: userKey)
            }
            currentUser = user
            self.error = nil
        } catch {
            if Self.invalidatesSession(error) {
                await clearLocalSession()
            }
            self.error = error
        }
    }

    private func clearLocalSession() async {
        do {
            try await session.clear(extraKeys: [userKey])
        } catch {
            logger.warning("Clearing the stored session failed", metadata: ["error.type": "\(type(of: error))"])
        }
        currentUser = nil
    }

    /// Whether an error means the stored session is no longer valid.
    static func invalidatesSession(_ error: APIError) -> Bool {
        error.code == .invalidToken || error.code == .invalidGrant || error.code == .notAuthenticated
    }
}
