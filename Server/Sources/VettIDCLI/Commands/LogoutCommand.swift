// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import ArgumentParser
import Foundation
import VettIDClient

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
        try await CLIContext.run(global) { context in
            let wasSignedIn = context.auth.isAuthenticated
            await context.auth.logout()
            context.output.emit(
                wasSignedIn ? "signed out" : "was not signed in",
                json: Result(status: wasSignedIn ? "signed_out" : "not_signed_in"))
        }
    }
}

extension LogoutCommand {
    /// The `--output json` result.
    struct Result: Encodable {
        let status: String
    }
}
