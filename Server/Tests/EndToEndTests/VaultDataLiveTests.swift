// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import NATSClient
import NIOCore
import Testing
import VettIDClient
import VettIDCore
import VettIDCrypto
import VettIDMessaging
import VettIDNats
import VettIDServer
import VettIDTestSupport

/// The member's secrets and profile as an app keeps them: `vault.secrets` / `vault.profile` over the SDK's sealed
/// session to the real backend's worker and a real nats-server. A secret value is read only after a recent vault
/// authentication of this device; plaintext requests for data handlers are refused; a tap on every subject hears none
/// of it; every call lands in the access log the portal's security page shows.
@Suite(.enabled(if: NATSLive.isAvailable, "nats-server is not installed"), .timeLimit(.minutes(3)))
struct VaultDataLiveTests {
    static let window = 3

    static func configure(_ configuration: inout ServerConfiguration) {
        NATSSDKLiveTests.configure(&configuration)
        configuration.vault.secretReadWindow = .seconds(Int64(window))
    }

    @Test @MainActor func secretsAndProfileTravelSealedAndReadingNeedsAFreshVaultAuthentication() async throws {
        try await NATSLive.with(tls: true, configure: Self.configure) { live in
            let log = LogCapture()
            let email = "vault-data@example.com"
            let device = try await NATSSDKLiveTests.messagingDevice(live, email: email, log: log)
            let channel = VaultSessionChannel(
                dependencies: .init(vault: device.vault, deviceKeyStore: SoftwareDeviceKeyStore(store: device.store)))
            let manager = NatsConnectionManager(
                configuration: .init(
                    tls: NATSTLSConfiguration(rootCertificatesPath: live.nats.caFile), logger: log.logger(label: "nats")
                ),
                provider: device.vault, store: NatsCredentialStore(store: device.store), sealedSession: channel)
            device.vault.handlerLink.attach(manager)
            await manager.connect()
            #expect(manager.state == .connected)

            let tap = try await NATSTap.start(live)

            let name = "bank-pin-live-e2e"
            let value = "2468-sealed-value-0451"
            let secrets = device.vault.secrets
            let stored = try await secrets.put(name: name, string: value, expectedVersion: 0)
            #expect(stored.version == 1)
            #expect(stored.size == value.utf8.count)
            let conflict = await #expect(throws: VaultMessageError.self) {
                try await secrets.put(name: name, string: "other", expectedVersion: 0)
            }
            #expect(conflict?.code == .versionConflict, "a second 'new' value for the name is refused")
            let listed = try await secrets.list()
            #expect(listed.secrets.map(\.name) == [name])
            #expect(listed.totalBytes == value.utf8.count)

            // The device's authentication at set-up is older than the window now: reading is refused, listing is not.
            try await Task.sleep(for: .seconds(Self.window + 1))
            let locked = await #expect(throws: VaultMessageError.self) { try await secrets.get(name: name) }
            #expect(locked?.code == .vaultAuthenticationRequired)
            _ = try await device.vault.authenticate(password: VaultLive.vaultPassword)
            let read = try await secrets.get(name: name)
            #expect(read.value == Data(value.utf8))
            #expect(read.version == 1)

            let profile = try await device.vault.profile.update(set: ["display_name": "Ada", "city": "Turin-e2e"])
            #expect(profile.version == 1)
            #expect(try await device.vault.profile.get().fields == ["display_name": "Ada", "city": "Turin-e2e"])

            let deleted = try await secrets.delete(name: name)
            #expect(deleted.version == 1)
            let gone = await #expect(throws: VaultMessageError.self) { try await secrets.get(name: name) }
            #expect(gone?.code == .secretNotFound)
            #expect(try await secrets.list().secrets.isEmpty)

            // The same handlers over plaintext NATS (no session) are refused before they run.
            let plain = OwnerSpaceClient(connection: manager.connection, namespace: try manager.ownerSpace().namespace)
            let refused = await NATSSDKLiveTests.natsError { () async throws(NatsConnectionError) in
                try await plain.executeHandler(SecretListOperation.handlerID)
            }
            #expect(refused?.vaultError?.code == .sealedSessionRequired)

            let bytes = await tap.stop()
            #expect(bytes.count > 3_000, "the tap heard the handshake and the envelopes")
            for needle in [
                value, name, "bank-pin", "Turin-e2e", "display_name", "secret.put", "secret.get", "profile.",
            ] {
                #expect(bytes.firstRange(of: Array(needle.utf8)) == nil, "'\(needle)' travels in the clear")
            }

            // Every call is in the access log: sealed ones with the device, the plaintext one without.
            let accessLog = live.server.components.vaultAccessLog
            await accessLog.flush()
            let entries = try await VaultAccessLogRepository(store: live.server.components.store)
                .recent(memberID: device.userGUID)
            // Calls less than a millisecond apart may share a timestamp: compared as a set of calls.
            let calls = entries.map { "\($0.handlerID):\($0.outcome)" }.sorted()
            #expect(
                calls
                    == [
                        "secret.put:ok", "secret.put:version_conflict", "secret.list:ok",
                        "secret.get:vault_authentication_required", "secret.get:ok", "profile.update:ok",
                        "profile.get:ok",
                        "secret.delete:ok", "secret.get:secret_not_found", "secret.list:ok",
                        "secret.list:sealed_session_required",
                    ].sorted(), "\(calls)")
            for entry in entries {
                #expect((entry.deviceThumbprint == nil) == (entry.outcome == "sealed_session_required"))
            }

            // The portal's security page shows them, the device named.
            let browser = PortalBrowser(baseURL: live.server.baseURL)
            let signIn = try await browser.get("/portal/sign-in")
            let done = try await browser.post(
                "/portal/sign-in",
                [("csrf", signIn.csrf ?? ""), ("email", email), ("password", VaultLive.memberPassword)])
            #expect(done.status == 303)
            let security = try await browser.get("/portal/security")
            let rows = security.all(#"<tr data-handler="([a-z.]+)" data-outcome="[a-z_]+""#)
            #expect(rows.count == calls.count)
            #expect(security.html.contains("Command-line tool, enrolled"))
            #expect(security.html.contains("Refused: vault_authentication_required"))
            #expect(!security.html.contains(value) && !security.html.contains(name))
            await manager.disconnect()
        }
    }
}
