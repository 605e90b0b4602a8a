// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import ArgumentParser
import Foundation
import VettIDClient

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
        try await CLIContext.run(global) { context in
            if let error = context.auth.error { throw error }
            guard let user = context.auth.currentUser else {
                throw CLIFailure(
                    code: "not_signed_in", message: "not signed in (profile \(global.profile)); run vettid login")
            }
            context.output.emit(
                "\(user.email) (id \(user.id), member since \(ISO8601DateFormatter().string(from: user.createdAt)))",
                json: Result(email: user.email, userID: user.id, createdAt: user.createdAt)
            )
        }
    }
}

extension WhoamiCommand {
    /// The `--output json` result.
    struct Result: Encodable {
        let email: String
        let userID: String
        let createdAt: Date
    }
}
