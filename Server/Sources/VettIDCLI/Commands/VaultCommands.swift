// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import ArgumentParser
import Foundation
import Logging
import VettIDClient

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
        try await withContext(global) { context in
            let link = try await resolveInvitation(context)
            let password = try PasswordPrompt.read(prompt: "Vault password (at least 12 characters): ")
            let token = developmentToken ?? ProcessInfo.processInfo.environment["VETTID_GATE_DEVELOPMENT_TOKEN"] ?? ""
            let vault = try await VaultDevice(context: context, serverURL: link.apiOrigin).service(
                attester: DevelopmentTokenAttester(token: token))
            let credential = try await vault.enroll(invitation: link, password: password)
            try await VaultDevice.remember(server: link.apiOrigin, context: context)
            let package = credential.package
            context.output.emit(
                "enrolled into the vault of \(package.userGUID) on \(link.apiOrigin.absoluteString): credential "
                    + "\(package.credentialID), version \(package.keyVersion), \(package.transactionKeys.count) transaction keys",
                json: [
                    "status": "enrolled", "user_guid": package.userGUID, "credential_id": package.credentialID,
                    "key_version": package.keyVersion, "transaction_keys": package.transactionKeys.count,
                    "server": link.apiOrigin.absoluteString,
                ])
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
        try await withContext(global) { context in
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
                json: [
                    "status": "authenticated", "user_guid": session.credential.userGUID,
                    "credential_id": session.credential.credentialID, "key_version": session.credential.keyVersion,
                    "expires_in": seconds,
                ])
        }
    }
}

/// The profile's vault device: its key, credential and vault server, all in the profile's encrypted store.
@MainActor
struct VaultDevice {
    let context: CLIContext
    let serverURL: URL

    private var prefix: String { "profile.\(context.options.profile).vault" }

    init(context: CLIContext, serverURL: URL) {
        self.context = context
        self.serverURL = serverURL
    }

    func service(attester: any DeviceAttester, reauthenticate: VaultReauthenticator? = nil) async throws -> VaultService
    {
        var logger = Logger(label: "vettid-vault") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .warning
        let configuration: VaultServiceConfiguration
        do throws(ConfigurationError) {
            configuration = try VaultServiceConfiguration(
                baseURL: serverURL, deviceType: .cli, logger: logger, credentialStorageKey: "\(prefix).credential",
                reauthenticate: reauthenticate)
        } catch {
            throw CLIFailure(code: error.code.rawValue, message: error.message)
        }
        // Status, sync and NATS go out with the member's session when this profile has one (no vault password
        // needed); otherwise with the vault session.
        let signedIn = await context.auth.apiClient.session.current != nil
        return VaultService(
            configuration: configuration,
            deviceKeyStore: CLIContext.deviceKeyStore(store: context.store, profile: context.options.profile),
            attester: attester, store: context.store,
            memberSession: signedIn ? context.auth.apiClient : nil, nonceStore: context.nonceStore)
    }

    /// Remembers which server the profile's vault lives on (an invitation link may name another than `--server`).
    static func remember(server: URL, context: CLIContext) async throws {
        try await context.store.set(
            Data(server.absoluteString.utf8), forKey: "profile.\(context.options.profile).vault.server")
    }

    /// The vault's server: the remembered one, else the profile's.
    static func rememberedServer(context: CLIContext) async throws -> URL {
        let key = "profile.\(context.options.profile).vault.server"
        if context.options.serverURL == nil, let data = try await context.store.data(forKey: key),
            let url = URL(string: String(decoding: data, as: UTF8.self))
        {
            return url
        }
        return context.serverURL
    }
}
