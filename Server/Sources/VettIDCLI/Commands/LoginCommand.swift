// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import ArgumentParser
import Foundation
import VettIDClient

/// `vettid login`.
public struct LoginCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Sign in; the session is kept in the profile's encrypted store."
    )
    @OptionGroup var global: GlobalOptions
    @Option(help: "The member's email address (optional with --passkey: the passkey names the member).")
    var email: String?
    @Flag(help: "Sign in with a passkey of this profile (vettid passkey add) instead of the password.")
    var passkey = false

    public init() {}

    public func validate() throws {
        guard passkey || email != nil else { throw ValidationError("--email is required without --passkey") }
    }

    @MainActor
    public func run() async throws {
        try await CLIContext.run(global) { context in
            if passkey {
                try await context.auth.signInWithPasskey(using: PasskeyCommand.authenticator(context), email: email)
            } else {
                guard let email else {
                    throw CLIFailure(code: "missing_email", message: "--email is required without --passkey")
                }
                let password = try PasswordPrompt.read(prompt: "Password: ")
                try await context.auth.login(email: email, password: password)
            }
            let user = context.auth.currentUser
            let shown = user?.email ?? email ?? ""
            context.output.emit(
                "signed in as \(shown)\(passkey ? " with a passkey" : "")",
                json: Result(status: "signed_in", email: shown, userID: user?.id ?? "")
            )
        }
    }
}

extension LoginCommand {
    /// The `--output json` result.
    struct Result: Encodable {
        let status: String
        let email: String
        let userID: String
    }
}
