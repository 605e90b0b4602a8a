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
    @Option(help: "The member's email address.") var email: String

    public init() {}

    @MainActor
    public func run() async throws {
        try await CLIContext.run(global) { context in
            let password = try PasswordPrompt.read(prompt: "Password: ")
            try await context.auth.login(email: email, password: password)
            let user = context.auth.currentUser
            context.output.emit(
                "signed in as \(user?.email ?? email)",
                json: Result(status: "signed_in", email: user?.email ?? email, userID: user?.id ?? "")
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
