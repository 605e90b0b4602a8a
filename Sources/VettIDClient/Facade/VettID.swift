// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
public import HTTPTypes
import Logging

/// The SDK's front door: configure it once with the backend's URL and the app's identity, and it picks the
/// platform's defaults and hands out the parts, sharing one ``SecureStore`` and one device key.
///
/// | | iPhone, iPad | Mac app | tool on a Mac | simulator | Linux |
/// |---|---|---|---|---|---|
/// | store | Keychain | Keychain | encrypted file | Keychain | encrypted file |
/// | device key | Secure Enclave | Secure Enclave | Secure Enclave | software | software |
/// | attestation | App Attest | development token or none | development token or none | development token | development token |
///
/// A Mac has no App Attest (``PlatformCapabilities``): its requests are DPoP-signed by the Secure Enclave key, and
/// enrollment and the Gate need a server that accepts the development token.
///
/// ```swift
/// let vettid = try VettID(configuration: .init(
///     baseURL: URL(string: "https://api.example.com")!, teamID: "ABCDE12345", bundleID: "com.example.app"))
/// let answer = try await vettid.gate.performProxyRequest(path: "/proxy/ai/v1/chat", method: .post, body: body)
/// ```
///
/// From it come ``auth`` (the member's session, DPoP-bound to the device key), ``vault`` (enrollment, vault
/// authentication, and status, sync and NATS tokens with the member's session), ``gate`` (App Attest, Gate tokens,
/// proxied requests and ``authorizationHeaders(path:method:)`` for an app's own HTTP stack), and
/// ``get(_:as:decoder:)`` / ``post(_:body:as:encoder:decoder:)`` for the app's own backend routes. The live NATS
/// connection is in the `VettIDNats` product (`vettid.natsManager()`).
@MainActor
public final class VettID {
    /// The configuration.
    public nonisolated let configuration: VettIDConfiguration
    /// The store every part keeps its secrets in.
    public nonisolated let store: any SecureStore
    /// The one device key: it binds the member session, the vault credential and the Gate tokens.
    public nonisolated let deviceKeyStore: any DeviceKeyStore
    /// The platform's attester (App Attest, the development token, or ``UnavailableAttester``).
    public nonisolated let attester: any DeviceAttester
    /// The member's session.
    public let auth: AuthManager
    /// The vault client, using the member's session for status, sync and NATS.
    public nonisolated let vault: VaultService
    /// The Gate client.
    public nonisolated let gate: GateClient
    /// The server's newest `DPoP-Nonce`, shared by ``auth``, ``vault`` and ``gate`` and kept in ``store`` under
    /// `vettid.dpop-nonces`, so no part (and no relaunch) starts with a refused proof.
    public nonisolated let nonceStore: DPoPNonceStore
    /// The member session's HTTP client (``AuthManager/apiClient``), for ``get(_:as:decoder:)`` and
    /// ``post(_:body:as:encoder:decoder:)``.
    nonisolated let memberSession: APIClient

    /// Creates the parts. Nothing is sent or read until they are used; call `await vettid.auth.restoreSession()`
    /// at launch.
    /// - Throws: ``ConfigurationError`` (an invalid URL or identity; `invalid_value` when the platform store cannot
    ///   be made).
    public init(configuration: VettIDConfiguration) throws(ConfigurationError) {
        self.configuration = configuration
        let store = try Self.makeStore(configuration)
        let deviceKeyStore = DeviceKeyStores.make(configuration.platform.deviceKeyKind, store: store)
        let attester = Self.makeAttester(configuration, store: store)
        self.store = store
        self.deviceKeyStore = deviceKeyStore
        let nonceStore = DPoPNonceStore(persistingIn: store, storageKey: "vettid.dpop-nonces")
        self.nonceStore = nonceStore
        self.attester = attester
        do {
            auth = AuthManager(
                configuration: try AuthManager.Configuration(
                    baseURL: configuration.baseURL, store: store, binding: .deviceKey(deviceKeyStore),
                    transport: configuration.transport, logger: configuration.logger, nonceStore: nonceStore,
                    clock: configuration.clock))
            memberSession = auth.apiClient
            vault = VaultService(
                configuration: try VaultServiceConfiguration(
                    baseURL: configuration.baseURL, logger: configuration.logger, transport: configuration.transport,
                    clock: configuration.clock),
                deviceKeyStore: deviceKeyStore, attester: attester, store: store, memberSession: auth.apiClient,
                nonceStore: nonceStore)
            gate = GateClient(
                configuration: try GateClientConfiguration(
                    baseURL: configuration.baseURL, teamID: configuration.teamID, bundleID: configuration.bundleID,
                    logLevel: configuration.logger.logLevel, logger: configuration.logger,
                    transport: configuration.transport, clock: configuration.clock),
                deviceKeyStore: deviceKeyStore, attester: attester, store: store, nonceStore: nonceStore)
        } catch let error as ConfigurationError {
            throw error
        } catch {
            throw ConfigurationError(code: .invalidValue, message: "The SDK could not be configured: \(error)")
        }
    }

    /// `Authorization` and `DPoP` for a proxied request the app sends itself (see
    /// ``GateClient/authorizationHeaders(path:method:)``).
    public nonisolated func authorizationHeaders(path: String, method: HTTPRequest.Method) async throws(GateError)
        -> HTTPFields
    {
        try await gate.authorizationHeaders(path: path, method: method)
    }

    static func makeStore(_ configuration: VettIDConfiguration) throws(ConfigurationError) -> any SecureStore {
        switch configuration.storage {
        case .store(let store):
            return store
        case .platformDefault(let directory):
            switch configuration.platform.storeKind {
            case .keychain:
                #if canImport(Security)
                    return KeychainSecureStore(service: configuration.bundleID)
                #else
                    throw ConfigurationError(code: .invalidValue, message: "This platform has no Keychain.")
                #endif
            case .encryptedFile:
                let folder =
                    directory
                    ?? VettIDConfiguration.defaultDirectory(
                        bundleID: configuration.bundleID, environment: ProcessInfo.processInfo.environment)
                return EncryptedFileSecureStore(
                    url: folder.appendingPathComponent("secrets.store"),
                    keyProvider: FileSecureStoreKeyProvider(url: folder.appendingPathComponent("secrets.key")))
            }
        }
    }

    static func makeAttester(_ configuration: VettIDConfiguration, store: any SecureStore) -> any DeviceAttester {
        switch configuration.platform.attestationKind(developmentTokenConfigured: configuration.developmentToken != nil)
        {
        case .appAttest:
            #if canImport(DeviceCheck)
                if #available(iOS 14.0, macOS 11.0, *) {
                    return AppAttestAttester(service: DeviceCheckAppAttestService(), store: store)
                }
            #endif
            return UnavailableAttester(reason: configuration.platform.attestationUnavailableReason)
        case .developmentToken:
            return DevelopmentTokenAttester(token: configuration.developmentToken ?? "")
        case .unavailable:
            return UnavailableAttester(reason: configuration.platform.attestationUnavailableReason)
        }
    }
}
