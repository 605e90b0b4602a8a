// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import VettIDClient
import VettIDCore
import VettIDMessaging
import VettIDNats

/// What `vettid vault secret` and `vettid vault profile` run over: the profile's vault service with its NATS manager
/// attached (a sealed session, opened by the SDK), connected for one command.
enum VaultDataConnection {
    /// Connects, runs `body` with the vault service, disconnects. A vault refusal becomes a failure with its code.
    @MainActor
    static func run<Result>(_ context: CLIContext, _ body: (VaultService) async throws -> Result) async throws -> Result
    {
        let service = try await VaultCommand.service(context)
        let manager = try await NATSCommand.manager(context, service: service)
        service.handlerLink.attach(manager)
        try await NATSCommand.connect(manager)
        defer { Task { await manager.disconnect() } }
        do {
            return try await body(service)
        } catch let error as VaultMessageError {
            throw CLIFailure(code: error.code.rawValue, message: error.message)
        }
    }

    /// Runs `read`; when the vault asks for a fresh vault authentication, asks for the vault password (on a
    /// terminal, or one line of standard input), authenticates this device and reads again.
    @MainActor
    static func afterVaultAuthentication<Result>(
        _ service: VaultService, _ read: () async throws(VaultMessageError) -> Result
    ) async throws -> Result {
        do {
            return try await read()
        } catch  where error.code == .vaultAuthenticationRequired {
            let password: String
            do {
                password = try PasswordPrompt.read(prompt: "Vault password (reading a secret needs it): ")
            } catch is PasswordPrompt.NoInput {
                throw CLIFailure(
                    code: error.code.rawValue,
                    message: "reading a secret needs a recent vault authentication: run `vettid auth` first")
            }
            _ = try await service.authenticate(password: password)
            return try await read()
        }
    }
}
