// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import ArgumentParser
import Foundation
import VettIDClient
import VettIDCore

/// `vettid register`: creates an account and signs in.
public struct RegisterCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "register",
        abstract: "Create a member account and sign in. The password is read without echo (or from stdin)."
    )
    @OptionGroup var global: GlobalOptions
    @Option(help: "The member's email address.") var email: String

    public init() {}

    @MainActor
    public func run() async throws {
        try await CLIContext.run(global) { context in
            let password = try PasswordPrompt.read(
                prompt: "Password (at least \(PasswordPolicy.standard.minimumLength) characters): ")
            try await context.auth.register(email: email, password: password)
            let user = context.auth.currentUser
            context.output.emit(
                "registered and signed in as \(user?.email ?? email) on \(context.serverURL.absoluteString)",
                json: Result(
                    status: "registered", email: user?.email ?? email, userID: user?.id ?? "",
                    server: context.serverURL.absoluteString)
            )
        }
    }
}

extension RegisterCommand {
    /// The `--output json` result.
    struct Result: Encodable {
        let status: String
        let email: String
        let userID: String
        let server: String
    }
}
