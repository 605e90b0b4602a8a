// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import ArgumentParser
import Foundation
import Logging
import VettIDClient
import VettIDCore

/// `vettid enroll`: enrolls this machine as the member's vault device from an invitation.
public struct EnrollCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "enroll",
        abstract: "Enroll this device into a member's vault from an invitation code, link or QR image.",
        discussion: """
            Takes the invitation as a code (XXXX-XXXX, against --server or the profile's server), as the \
            `vettid://enroll?code=…&api=…` link, or as a QR image (--qr-image, decoded with zbarimg). The device \
            attests with the server's development token (--development-token or VETTID_GATE_DEVELOPMENT_TOKEN) when \
            the server requires attestation. The vault password is read without echo and travels only HPKE-encrypted \
            to a one-time transaction key. The device key and the credential package stay in the profile's \
            encrypted store.
            """
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The invitation code (XXXX-XXXX) or the vettid://enroll link.") var invitation: String?
    @Option(help: "A PNG or JPEG of the invitation's QR code.") var qrImage: String?
    @Option(help: "The server's development attestation token (default: $VETTID_GATE_DEVELOPMENT_TOKEN).")
    var developmentToken: String?

    public init() {}

    public func validate() throws {
        guard (invitation == nil) != (qrImage == nil) else {
            throw ValidationError("give either an invitation code or link, or --qr-image FILE")
        }
    }

    @MainActor
    public func run() async throws {
        try await CLIContext.run(global) { context in
            let link = try await resolveInvitation(context)
            let password = try PasswordPrompt.read(
                prompt: "Vault password (at least \(PasswordPolicy.standard.minimumLength) characters): ")
            let token = developmentToken ?? ProcessInfo.processInfo.environment["VETTID_GATE_DEVELOPMENT_TOKEN"] ?? ""
            let vault = try await VaultDevice(context: context, serverURL: link.apiOrigin).service(
                attester: DevelopmentTokenAttester(token: token))
            let credential = try await vault.enroll(invitation: link, password: password)
            try await VaultDevice.remember(server: link.apiOrigin, context: context)
            let package = credential.package
            context.output.emit(
                "enrolled into the vault of \(package.userGUID) on \(link.apiOrigin.absoluteString): credential "
                    + "\(package.credentialID), version \(package.keyVersion), \(package.transactionKeys.count) transaction keys",
                json: Result(
                    status: "enrolled", userGUID: package.userGUID, credentialID: package.credentialID,
                    keyVersion: package.keyVersion, transactionKeys: package.transactionKeys.count,
                    server: link.apiOrigin.absoluteString))
        }
    }

    @MainActor
    private func resolveInvitation(_ context: CLIContext) async throws -> EnrollmentInvitationLink {
        let text: String
        if let qrImage {
            text = try QRImageDecoder.decode(path: qrImage)
        } else {
            text = invitation ?? ""
        }
        do throws(InvitationLinkError) {
            if text.lowercased().hasPrefix("vettid:") { return try EnrollmentInvitationLink(parsing: text) }
            return try EnrollmentInvitationLink(code: text, apiOrigin: context.serverURL)
        } catch {
            throw CLIFailure(code: error.code.rawValue, message: error.message)
        }
    }
}

extension EnrollCommand {
    /// The `--output json` result.
    struct Result: Encodable {
        let status: String
        let userGUID: String
        let credentialID: String
        let keyVersion: Int
        let transactionKeys: Int
        let server: String
    }
}
