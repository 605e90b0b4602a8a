// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import ArgumentParser
import Foundation
import VettIDClient
import VettIDCore

/// Runs `body` with a context, reporting failures in the chosen format.
@MainActor
func withContext(_ options: GlobalOptions, _ body: (CLIContext) async throws -> Void) async throws {
    do {
        try await body(try await CLIContext.open(options))
    } catch let error as APIError {
        throw CLIFailure(error).exit(options.output)
    } catch let failure as CLIFailure {
        throw failure.exit(options.output)
    } catch let error as PasswordPrompt.NoInput {
        throw CLIFailure(code: "no_password", message: error.description).exit(options.output)
    }
}

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
        try await withContext(global) { context in
            let password = try PasswordPrompt.read(prompt: "Password (at least 12 characters): ")
            try await context.auth.register(email: email, password: password)
            let user = context.auth.currentUser
            context.output.emit(
                "registered and signed in as \(user?.email ?? email) on \(context.serverURL.absoluteString)",
                json: [
                    "status": "registered", "email": user?.email ?? email, "user_id": user?.id ?? "",
                    "server": context.serverURL.absoluteString,
                ]
            )
        }
    }
}

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
        try await withContext(global) { context in
            let password = try PasswordPrompt.read(prompt: "Password: ")
            try await context.auth.login(email: email, password: password)
            let user = context.auth.currentUser
            context.output.emit(
                "signed in as \(user?.email ?? email)",
                json: ["status": "signed_in", "email": user?.email ?? email, "user_id": user?.id ?? ""]
            )
        }
    }
}

/// `vettid whoami`.
public struct WhoamiCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "whoami",
        abstract: "Show the signed-in member (asks the server; refreshes the session if needed)."
    )
    @OptionGroup var global: GlobalOptions

    public init() {}

    @MainActor
    public func run() async throws {
        try await withContext(global) { context in
            if let error = context.auth.error { throw error }
            guard let user = context.auth.currentUser else {
                throw CLIFailure(
                    code: "not_signed_in", message: "not signed in (profile \(global.profile)); run vettid login")
            }
            context.output.emit(
                "\(user.email) (id \(user.id), member since \(ISO8601DateFormatter().string(from: user.createdAt)))",
                json: [
                    "email": user.email, "user_id": user.id,
                    "created_at": ISO8601DateFormatter().string(from: user.createdAt),
                ]
            )
        }
    }
}

/// `vettid logout`.
public struct LogoutCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "logout",
        abstract: "Sign out: revokes the session on the server and clears it locally."
    )
    @OptionGroup var global: GlobalOptions

    public init() {}

    @MainActor
    public func run() async throws {
        try await withContext(global) { context in
            let wasSignedIn = context.auth.isAuthenticated
            await context.auth.logout()
            context.output.emit(
                wasSignedIn ? "signed out" : "was not signed in",
                json: ["status": wasSignedIn ? "signed_out" : "not_signed_in"])
        }
    }
}
