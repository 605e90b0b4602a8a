// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Logging
import OpenAPIRuntime
import VettIDAPI
import VettIDAttestation
import VettIDClient
import VettIDCore
import VettIDServer
import VettIDSoftwareAttestation
import VettIDSoftwareAttestationClient

/// The demo's vault section: a member invites a device (QR rendered by the server, decoded with zbarimg), the
/// device enrolls with a software App Attest object, sets its password HPKE-encrypted to a transaction key, and
/// authenticates; a weak password, a wrong password and a forged LAT are refused.
@MainActor
struct VaultDemo {
    let reporter: DemoReporter

    /// Runs the vault steps on the demo's backend; returns the enrolled device for the messaging section.
    func run(on backend: DemoBackend) async throws -> EnrolledDemoDevice {
        reporter.section("vault enrollment and authentication")
        return try await walk(server: backend.server, authority: backend.authority, appID: DemoBackend.appID)
    }

    private func walk(
        server: LoopbackServer, authority: SoftwareAttestationAuthority, appID: String
    ) async throws -> EnrolledDemoDevice {
        var sdkLogger = Logger(label: "vettid-vault") { StreamLogHandler.standardError(label: $0) }
        sdkLogger.logLevel = .error
        let memberStore = InMemorySecureStore()
        let member = AuthManager(
            configuration: try .init(baseURL: server.baseURL, store: memberStore, logger: sdkLogger))
        let password = "vivid-Otter-parsley-42"
        let vaultPassword = "correct-Horse-battery-91"

        let email = "vault-\(UUID().uuidString.prefix(8).lowercased())@example.com"
        let link = try await reporter.step("invite") {
            try await member.register(email: email, password: password)
            let invitation = try await member.apiClient.perform { client in
                try await client.createInvitation(body: .json(.init(expiresIn: 600, label: "demo device"))).created.body
                    .json
            }
            let png = try await member.apiClient.perform { client in
                let body = try await client.getInvitationQRCode(
                    path: .init(code: invitation.code), headers: .init(accept: [.init(contentType: .png)])
                ).ok.body.png
                return try await Data(collecting: body, upTo: 1 << 20)
            }
            let file = server.directory.appendingPathComponent("invitation.png")
            try png.write(to: file)
            let scanned = try QRImageDecoder.decode(path: file.path)
            guard scanned == invitation.qrPayload else { throw DemoFailure("the QR code decodes to \(scanned)") }
            let link = try EnrollmentInvitationLink(parsing: scanned)
            return (
                link,
                "invitation \(invitation.code); QR PNG (\(png.count) B, libqrencode) decoded by zbarimg → \(scanned)"
            )
        }

        let deviceStore = InMemorySecureStore()
        let vault = VaultService(
            configuration: try VaultServiceConfiguration(
                baseURL: server.baseURL, deviceType: .cli, logger: sdkLogger),
            deviceKeyStore: SoftwareDeviceKeyStore(store: deviceStore),
            attester: SoftwareDeviceAttester(
                attester: SoftwareAttester(authority: authority, appID: appID), store: deviceStore),
            store: deviceStore)
        let enrollment = vault.enrollment()
        try await reporter.step("enroll: start") {
            let session = try await enrollment.start(link)
            return (
                (),
                "session bound to the device's DPoP key; \(session.transactionKeys.count) one-time X25519 transaction keys"
            )
        }
        try await reporter.step("enroll: attest") {
            try await enrollment.attest()
            return (
                (),
                "software App Attest object over SHA-256(challenge ‖ device key thumbprint), verified under the trusted root"
            )
        }
        try await reporter.step("refuse weak vault password") {
            do {
                try await enrollment.setPassword("password1234")
                throw DemoFailure("the server accepted a weak vault password")
            } catch let error as APIError where error.code == .weakPassword {
                return (
                    (),
                    "weak_password (the HPKE-sealed password was opened once, then refused): \(error.reasons.first ?? "")"
                )
            }
        }
        try await reporter.step("enroll: password") {
            try await enrollment.setPassword(vaultPassword)
            return (
                (),
                "HPKE-sealed to another unused transaction key (the refused attempt burned its key); Argon2id on the server"
            )
        }
        try await reporter.step("enroll: finalize") {
            let credential = try await enrollment.finalize()
            let package = credential.package
            return (
                (),
                "credential \(package.credentialID) v\(package.keyVersion), sealed blob \(package.sealedCredential.count) chars, LAT v\(package.ledgerAuthToken.version), \(package.transactionKeys.count) keys; stored atomically"
            )
        }
        try await reporter.step("authenticate") {
            let session = try await vault.authenticate(password: vaultPassword)
            return (
                (),
                "LAT matched; action + HPKE password → vault session (\(Int(session.expiresAt.timeIntervalSinceNow.rounded())) s); credential, blob and LAT rotated to v\(session.credential.keyVersion)"
            )
        }
        try await reporter.step("vault status") {
            let status = try await vault.getVaultStatus()
            return (
                (),
                "\(status.status.rawValue) (vault session, DPoP-bound): credential v\(status.credentialVersion ?? 0), \(status.transactionKeysRemaining ?? 0) transaction keys, security level \(status.securityLevel ?? "?")"
            )
        }
        try await reporter.step("vault sync") {
            let result = try await vault.syncVault()
            return (
                (),
                "\(result.status.rawValue): \(result.newTransactionKeys.count) new keys (refill to 20 only below 10), \(result.storedTransactionKeys) stored on the device"
            )
        }
        try await reporter.step("deploy vault") {
            let deployed = try await member.apiClient.perform { client in try await client.deployVault().ok.body.json }
            return (
                (),
                "member deploys: \(deployed.status.rawValue), owner space \(deployed.ownerSpaceId.prefix(20))…, message space \(deployed.messageSpaceId.prefix(22))…"
            )
        }
        try await reporter.step("vault status after deploy") {
            let status = try await vault.getVaultStatus()
            guard status.status.rawValue == "active" else {
                throw DemoFailure("the vault is \(status.status.rawValue) after deploy")
            }
            return (
                (),
                "\(status.status.rawValue); last sync \(status.lastSyncAt.map { "\(Int(-$0.timeIntervalSinceNow)) s ago" } ?? "never")"
            )
        }
        try await reporter.step("refuse wrong vault password") {
            do {
                _ = try await vault.authenticate(password: "not-my-Vault-password-7")
                throw DemoFailure("the server accepted a wrong vault password")
            } catch let error as APIError where error.code == .invalidCredentials {
                return ((), "invalid_credentials: \(error.description)")
            }
        }
        try await reporter.step("refuse forged LAT") {
            let genuine = try await vault.credentialStore.require()
            var forged = genuine
            forged.package.ledgerAuthToken = LedgerAuthToken(
                latID: genuine.package.ledgerAuthToken.latID, token: String(repeating: "A", count: 43),
                version: genuine.package.ledgerAuthToken.version)
            try await vault.credentialStore.save(forged)
            var refusal: APIError?
            do throws(APIError) { _ = try await vault.authenticate(password: vaultPassword) } catch { refusal = error }
            try await vault.credentialStore.save(genuine)
            guard refusal?.code == .latMismatch else {
                throw DemoFailure("the device sent its password despite a LAT mismatch")
            }
            return ((), "lat_mismatch: the server's LAT differs from the stored one, so the password was never sent")
        }
        return EnrolledDemoDevice(
            vault: vault, deviceStore: deviceStore, vaultPassword: vaultPassword, memberEmail: email,
            memberPassword: password)
    }
}

/// The device the vault section enrolled: what the messaging section connects with.
struct EnrolledDemoDevice {
    let vault: VaultService
    let deviceStore: any SecureStore
    /// The vault password the device set (the secrets section authenticates with it before reading a value).
    let vaultPassword: String
    /// The member's email and password (the mailbox section signs the member in elsewhere with them).
    let memberEmail: String
    let memberPassword: String
}
