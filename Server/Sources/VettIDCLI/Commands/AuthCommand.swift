// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import ArgumentParser
import Foundation
import Logging
import VettIDClient

/// `vettid auth`: authenticates to the vault with the enrolled credential (action request + auth execute).
public struct VaultAuthCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "auth",
        abstract: "Authenticate to the vault with this device's credential and the vault password.",
        discussion: """
            Asks the server for an action, checks that the server's ledger auth token (LAT) matches the stored one \
            (on a mismatch the password is never sent), then sends the HPKE-encrypted password with the sealed \
            credential. On success the rotated credential package replaces the stored one.
            """
    )

    @OptionGroup var global: GlobalOptions

    public init() {}

    @MainActor
    public func run() async throws {
        try await CLIContext.run(global) { context in
            let device = VaultDevice(
                context: context, serverURL: try await VaultDevice.rememberedServer(context: context))
            // Development-token and unattested credentials need no assertion; the attester is never asked.
            let vault = try await device.service(attester: DevelopmentTokenAttester(token: ""))
            guard try await vault.storedCredential() != nil else {
                throw CLIFailure(
                    code: "not_enrolled", message: "this profile has no vault credential; run `vettid enroll` first")
            }
            let password = try PasswordPrompt.read(prompt: "Vault password: ")
            let session = try await vault.authenticate(password: password)
            let seconds = max(0, Int(session.expiresAt.timeIntervalSinceNow.rounded()))
            context.output.emit(
                "authenticated to the vault of \(session.credential.userGUID); session valid for \(seconds) s; "
                    + "credential rotated to version \(session.credential.keyVersion)",
                json: Result(
                    status: "authenticated", userGUID: session.credential.userGUID,
                    credentialID: session.credential.credentialID, keyVersion: session.credential.keyVersion,
                    expiresIn: seconds))
        }
    }
}

extension VaultAuthCommand {
    /// The `--output json` result.
    struct Result: Encodable {
        let status: String
        let userGUID: String
        let credentialID: String
        let keyVersion: Int
        let expiresIn: Int
    }
}
