// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import ArgumentParser
import Foundation
import OpenAPIRuntime
import VettIDAPI
import VettIDClient
import VettIDCore

/// `vettid invite create|list|revoke`: device invitations of the signed-in member.
public struct InviteCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "invite",
        abstract: "Create, list and revoke device invitations (QR codes a device scans to enroll).",
        subcommands: [Create.self, List.self, Revoke.self]
    )

    public init() {}

    /// `vettid invite create`.
    public struct Create: AsyncParsableCommand {
        public static let configuration = CommandConfiguration(
            abstract: "Create a single-use invitation and print its QR code and code."
        )
        @OptionGroup var global: GlobalOptions
        @Option(help: "Lifetime in seconds (60 to 604800; default 86400).") var expiresIn: Int?
        @Option(help: "A note for you, such as the device's name.") var label: String?
        @Flag(help: "Do not print the QR code.") var noQR = false

        public init() {}

        @MainActor
        public func run() async throws {
            try await CLIContext.run(global) { context in
                let request = Components.Schemas.CreateInvitationRequest(expiresIn: expiresIn, label: label)
                let invitation = try await context.auth.apiClient.perform { client in
                    try await client.createInvitation(body: .json(request)).created.body.json
                }
                var qrText = ""
                if !noQR, global.output == .human {
                    qrText = try await context.auth.apiClient.perform { client in
                        let body = try await client.getInvitationQRCode(
                            path: .init(code: invitation.code), headers: .init(accept: [.init(contentType: .plainText)])
                        ).ok.body.plainText
                        return try await String(collecting: body, upTo: 1 << 20)
                    }
                }
                context.output.emit(
                    qrText
                        + "invitation \(invitation.code) (expires \(ISO8601DateFormatter().string(from: invitation.expiresAt)))\n"
                        + "payload: \(invitation.qrPayload)",
                    json: Invitation(invitation)
                )
            }
        }
    }

    /// `vettid invite list`.
    public struct List: AsyncParsableCommand {
        public static let configuration = CommandConfiguration(abstract: "List your invitations, newest first.")
        @OptionGroup var global: GlobalOptions

        public init() {}

        @MainActor
        public func run() async throws {
            try await CLIContext.run(global) { context in
                let list = try await context.auth.apiClient.perform { client in
                    try await client.listInvitations().ok.body.json.invitations
                }
                let lines = list.map {
                    "\($0.code)  \($0.status.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0))  \($0.label ?? "")"
                }
                context.output.emit(
                    list.isEmpty ? "no invitations" : lines.joined(separator: "\n"),
                    json: Listing(invitations: list.map(Invitation.init))
                )
            }
        }
    }

    /// `vettid invite revoke CODE`.
    public struct Revoke: AsyncParsableCommand {
        public static let configuration = CommandConfiguration(abstract: "Revoke a pending invitation.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The invitation code (XXXX-XXXX).") var code: String

        public init() {}

        @MainActor
        public func run() async throws {
            try await CLIContext.run(global) { context in
                let normalised = code.uppercased().filter { !$0.isWhitespace }
                let invitation = try await context.auth.apiClient.perform { client in
                    try await client.revokeInvitation(path: .init(code: normalised)).ok.body.json
                }
                context.output.emit("revoked \(invitation.code)", json: Invitation(invitation))
            }
        }
    }

    /// An invitation in `--output json` (create and revoke print one, list prints them in `invitations`).
    struct Invitation: Encodable {
        let code: String
        let status: String
        let qrPayload: String
        let expiresAt: Date
        let label: String?

        init(_ invitation: Components.Schemas.Invitation) {
            code = invitation.code
            status = invitation.status.rawValue
            qrPayload = invitation.qrPayload
            expiresAt = invitation.expiresAt
            label = invitation.label
        }
    }

    /// `vettid invite list --output json`.
    struct Listing: Encodable {
        let invitations: [Invitation]
    }
}
