// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Logging
import NATSClient
import VettIDClient
import VettIDCore
import VettIDMessaging
import VettIDNats

/// What a client command works with: the profile store, the server URL, the session.
///
/// Profiles live in one encrypted store (`<config-dir>/profiles.store`, ChaChaPoly, key in
/// `<config-dir>/store.key`, both 0600): `profile.<name>.server` holds the profile's server URL and
/// `profile.<name>.session.*` its session, which persists across runs, and `profile.<name>.dpop-nonces` the newest
/// `DPoP-Nonce` per origin, which every client of a run shares and the next run starts with (no command opens with
/// a `use_dpop_nonce` refusal).
@MainActor
struct CLIContext {
    let options: GlobalOptions
    let store: any SecureStore
    let serverURL: URL
    let auth: AuthManager
    /// The profile's `DPoP-Nonce` memory, shared by the member session, the vault and the Gate clients.
    let nonceStore: DPoPNonceStore
    var output: Output { Output(format: options.output) }

    static func open(_ options: GlobalOptions) async throws -> CLIContext {
        let directory = options.resolvedConfigDirectory
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let store = EncryptedFileSecureStore(
            url: directory.appendingPathComponent("profiles.store"),
            keyProvider: FileSecureStoreKeyProvider(url: directory.appendingPathComponent("store.key"))
        )
        let serverKey = "profile.\(options.profile).server"
        let stored = try await store.data(forKey: serverKey).map { String(decoding: $0, as: UTF8.self) }
        let text = options.serverURL ?? stored ?? "http://127.0.0.1:8080"
        guard let serverURL = URL(string: text) else {
            throw CLIFailure(code: "invalid_server", message: "the server URL \(text) is not valid")
        }
        if options.serverURL != nil, options.serverURL != stored {
            try await store.set(Data(text.utf8), forKey: serverKey)
        }
        var logger = Logger(label: "vettid") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .warning
        let nonceStore = Self.nonceStore(store: store, profile: options.profile)
        let auth = AuthManager(
            configuration: try AuthManager.Configuration(
                baseURL: serverURL, store: store,
                // Bound to the profile's device key, the one its vault credential uses too.
                binding: .deviceKey(Self.deviceKeyStore(store: store, profile: options.profile)),
                logger: logger, storageKeyPrefix: "profile.\(options.profile).session", nonceStore: nonceStore
            )
        )
        await auth.restoreSession()
        return CLIContext(options: options, store: store, serverURL: serverURL, auth: auth, nonceStore: nonceStore)
    }

    /// The profile's nonces, persisted in its store.
    static func nonceStore(store: any SecureStore, profile: String) -> DPoPNonceStore {
        DPoPNonceStore(persistingIn: store, storageKey: "profile.\(profile).dpop-nonces")
    }

    /// Opens the context of `options` and runs a command's `body` with it: the one way every client command
    /// starts. Failures (server errors, the CLI's own, a missing password, NATS errors) are reported in the chosen
    /// output format and end the process with status 1.
    static func run(_ options: GlobalOptions, _ body: (CLIContext) async throws -> Void) async throws {
        do {
            do {
                try await body(try await open(options))
            } catch let error as NatsConnectionError {
                throw CLIFailure(code: error.vaultError?.code.rawValue ?? error.code.rawValue, message: error.message)
            } catch let error as NATSError {
                throw CLIFailure(code: error.code.rawValue, message: error.message)
            }
        } catch let error as APIError {
            throw CLIFailure(error).exit(options.output)
        } catch let failure as CLIFailure {
            throw failure.exit(options.output)
        } catch let error as PasswordPrompt.NoInput {
            throw CLIFailure(code: "no_password", message: error.description).exit(options.output)
        }
    }

    /// The profile's device key: it binds the member session (DPoP) and the vault credential.
    static func deviceKeyStore(store: any SecureStore, profile: String) -> SoftwareDeviceKeyStore {
        SoftwareDeviceKeyStore(store: store, storageKey: "profile.\(profile).vault.device-key")
    }
}
