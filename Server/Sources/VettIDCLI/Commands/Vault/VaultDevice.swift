// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import Foundation
import Logging
import VettIDClient
import VettIDCore

/// The profile's vault device: its key, credential and vault server, all in the profile's encrypted store.
@MainActor
struct VaultDevice {
    let context: CLIContext
    let serverURL: URL

    private var prefix: String { "profile.\(context.options.profile).vault" }

    init(context: CLIContext, serverURL: URL) {
        self.context = context
        self.serverURL = serverURL
    }

    func service(attester: any DeviceAttester, reauthenticate: VaultReauthenticator? = nil) async throws -> VaultService
    {
        var logger = Logger(label: "vettid-vault") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .warning
        let configuration: VaultServiceConfiguration
        do throws(ConfigurationError) {
            configuration = try VaultServiceConfiguration(
                baseURL: serverURL, deviceType: .cli, logger: logger, credentialStorageKey: "\(prefix).credential",
                reauthenticate: reauthenticate)
        } catch {
            throw CLIFailure(code: error.code.rawValue, message: error.message)
        }
        // Status, sync and NATS go out with the member's session when this profile has one (no vault password
        // needed); otherwise with the vault session.
        let signedIn = await context.auth.apiClient.session.current != nil
        return VaultService(
            configuration: configuration,
            deviceKeyStore: CLIContext.deviceKeyStore(store: context.store, profile: context.options.profile),
            attester: attester, store: context.store,
            memberSession: signedIn ? context.auth.apiClient : nil, nonceStore: context.nonceStore)
    }

    /// Remembers which server the profile's vault lives on (an invitation link may name another than `--server`).
    static func remember(server: URL, context: CLIContext) async throws {
        try await context.store.set(
            Data(server.absoluteString.utf8), forKey: "profile.\(context.options.profile).vault.server")
    }

    /// The vault's server: the remembered one, else the profile's.
    static func rememberedServer(context: CLIContext) async throws -> URL {
        let key = "profile.\(context.options.profile).vault.server"
        if context.options.serverURL == nil, let data = try await context.store.data(forKey: key),
            let url = URL(string: String(decoding: data, as: UTF8.self))
        {
            return url
        }
        return context.serverURL
    }
}
