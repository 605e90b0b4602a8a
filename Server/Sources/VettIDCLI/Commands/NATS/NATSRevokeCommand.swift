// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import ArgumentParser
import Foundation
import Logging
import NATSClient
import NIOCore
import VettIDClient
import VettIDCore
import VettIDCrypto
import VettIDMessaging
import VettIDNats

/// `vettid nats revoke`: revoke a token (the stored one by default); nats-server cuts it off.
public struct NATSRevokeCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "revoke", abstract: "Revoke a NATS token (default: the profile's stored token).")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The token id (see `vettid nats status`).")
    var tokenID: String?

    public init() {}

    @MainActor
    public func run() async throws {
        try await CLIContext.run(global) { context in
            let store = NATSCommand.credentialStore(context)
            let stored = await store.load()
            guard let id = tokenID ?? stored?.tokenID else {
                throw CLIFailure(
                    code: "no_token", message: "no token id given and none stored; see `vettid nats status`")
            }
            let revoked: NatsTokenRevocation
            do {
                revoked = try await VaultCommand.service(context).revokeNatsToken(id: id)
            } catch let error as APIError where error.code == .natsUnavailable {
                // The server recorded the revocation and pushes it once nats-server is back: the token is dead
                // either way, so it is no longer the profile's.
                if stored?.tokenID == id { await store.remove() }
                throw error
            }
            if stored?.tokenID == id { await store.remove() }
            let at = ISO8601DateFormatter().string(from: revoked.revokedAt)
            context.output.emit(
                "revoked \(revoked.tokenID) at \(at); nats-server has cut it off",
                json: Result(tokenID: revoked.tokenID, status: revoked.status, revokedAt: revoked.revokedAt))
        }
    }
}

extension NATSRevokeCommand {
    /// The `--output json` result.
    struct Result: Encodable {
        let tokenID: String
        let status: String
        let revokedAt: Date
    }
}
