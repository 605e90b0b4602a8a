// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import Foundation
import NIOConcurrencyHelpers
import SQLKit
import Testing
import VettIDServer
import VettIDTestSupport

@testable import VettIDCLI

/// The built `vettid` binary, run as a user would run it, against a live server.
@Suite(.serialized, .timeLimit(.minutes(5))) struct CLITests {
    /// The directory holding the test bundle also holds the built executables.
    static var binDirectory: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    }

    static let vettid: URL? = locateVettid()

    static func locateVettid() -> URL? {
        let candidates = [
            binDirectory.appendingPathComponent("vettid"),
            binDirectory.deletingLastPathComponent().appendingPathComponent("vettid"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    struct Run {
        let status: Int32
        let stdout: String
        let stderr: String
        var json: [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(stdout.utf8))) as? [String: Any] ?? [:]
        }
        var errorJSON: [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(stderr.utf8))) as? [String: Any] ?? [:]
        }
    }

    /// Runs the built `vettid` with `arguments` (and `stdin`) to its exit, on a thread of its own: the command often
    /// talks to a server in this process, which needs the cooperative pool to answer (see ``onOwnThread(_:)``).
    func run(_ arguments: [String], stdin: String? = nil, configDirectory: URL) async throws -> Run {
        try await onOwnThread { try runBlocking(arguments, stdin: stdin, configDirectory: configDirectory) }
    }

    private func runBlocking(_ arguments: [String], stdin: String?, configDirectory: URL) throws -> Run {
        let process = Process()
        guard let executable = Self.vettid else {
            throw CLITestFailure("the vettid executable is not built next to the tests")
        }
        process.executableURL = executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = configDirectory.path
        process.environment = environment
        let input = Pipe()
        let output = Pipe()
        let error = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        let exit = VettIDTestSupport.ProcessExitWatcher(process)
        try process.run()
        // A command that hangs fails the test instead of the whole run.
        let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 90, execute: watchdog)
        defer { watchdog.cancel() }
        if let stdin { input.fileHandleForWriting.write(Data((stdin + "\n").utf8)) }
        try input.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = error.fileHandleForReading.readDataToEndOfFile()
        guard exit.wait(timeout: .seconds(30)), let status = exit.exitStatus else {
            throw CLITestFailure("vettid \(arguments.joined(separator: " ")) did not exit")
        }
        return Run(
            status: status, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self))
    }

    /// `vettid passkey add|list|rm` and `vettid login --passkey` with the CLI's software authenticator.
    @Test(.enabled(if: vettid != nil, "the vettid executable was not built"))
    func passkeysFromTheCommandLine() async throws {
        try await LiveServer.withServer { server in
            let config = server.directory.appendingPathComponent("config")
            let url = server.baseURL.absoluteString
            let register = try await run(
                ["register", "--email", "passkey-cli@example.com", "--server", url], stdin: "vivid-Otter-parsley-42",
                configDirectory: config)
            #expect(register.status == 0, "\(register.stderr)")
            let added = try await run(
                ["passkey", "add", "--name", "Terminal", "--output", "json"], configDirectory: config)
            #expect(added.status == 0, "\(added.stderr)")
            #expect(added.json["name"] as? String == "Terminal")
            let id = try #require(added.json["id"] as? String)
            let listed = try await run(["passkey", "list"], configDirectory: config)
            #expect(listed.stdout.contains(id) && listed.stdout.contains("never used"), "\(listed.stdout)")

            #expect(try await run(["logout"], configDirectory: config).status == 0)
            let signedIn = try await run(["login", "--passkey", "--output", "json"], configDirectory: config)
            #expect(signedIn.status == 0, "\(signedIn.stderr)")
            #expect(signedIn.json["email"] as? String == "passkey-cli@example.com")
            #expect(try await run(["passkey", "list"], configDirectory: config).stdout.contains("last used"))

            let removed = try await run(["passkey", "rm", id], configDirectory: config)
            #expect(removed.status == 0, "\(removed.stderr)")
            #expect(try await run(["logout"], configDirectory: config).status == 0)
            // Forgotten here and unknown to the server: nothing to sign in with.
            let refused = try await run(["login", "--passkey", "--output", "json"], configDirectory: config)
            #expect(refused.status == 1)
            #expect(refused.errorJSON["error"] as? String == "passkey_failed", "\(refused.stderr)")
        }
    }

    @Test(.enabled(if: vettid != nil, "the vettid executable was not built"))
    func registerWhoamiLogoutWithProfilesAndJSON() async throws {
        try await LiveServer.withServer { server in
            let config = server.directory.appendingPathComponent("config")
            let url = server.baseURL.absoluteString
            let register = try await run(
                ["register", "--email", "cli@example.com", "--server", url, "--output", "json"],
                stdin: "vivid-Otter-parsley-42", configDirectory: config)
            #expect(register.status == 0, "\(register.stderr)")
            #expect(register.json["status"] as? String == "registered")

            // The profile remembers its server: no --server needed any more.
            let whoami = try await run(["whoami", "--output", "json"], configDirectory: config)
            #expect(whoami.status == 0, "\(whoami.stderr)")
            #expect(whoami.json["email"] as? String == "cli@example.com")

            // Another profile has no session.
            let other = try await run(["whoami", "--profile", "work", "--server", url], configDirectory: config)
            #expect(other.status == 1)
            #expect(other.stderr.contains("not signed in"))

            let mode =
                try FileManager.default.attributesOfItem(
                    atPath: config.appendingPathComponent("vettid/profiles.store").path)[.posixPermissions] as? Int
            #expect(mode == 0o600)
            let stored = try Data(contentsOf: config.appendingPathComponent("vettid/profiles.store"))
            #expect(
                !String(decoding: stored, as: UTF8.self).contains("cli@example.com"), "the profile store is encrypted")

            let wrong = try await run(
                ["login", "--email", "cli@example.com", "--output", "json"], stdin: "not-the-password-9",
                configDirectory: config)
            #expect(wrong.status == 1)
            #expect(wrong.errorJSON["error"] as? String == "invalid_credentials")

            #expect(try await run(["logout"], configDirectory: config).status == 0)
            #expect(try await run(["whoami"], configDirectory: config).status == 1)
        }
    }

    @Test(.enabled(if: vettid != nil, "the vettid executable was not built"))
    func inviteCreateListRevoke() async throws {
        try await LiveServer.withServer { server in
            let config = server.directory.appendingPathComponent("config")
            let url = server.baseURL.absoluteString
            #expect(
                try await run(
                    ["register", "--email", "inviter@example.com", "--server", url], stdin: "vivid-Otter-parsley-42",
                    configDirectory: config
                ).status == 0)
            let human = try await run(["invite", "create", "--label", "Phone"], configDirectory: config)
            #expect(human.status == 0, "\(human.stderr)")
            #expect(human.stdout.contains("█"), "the QR code is printed as terminal text")
            let created = try await run(
                ["invite", "create", "--expires-in", "600", "--output", "json"], configDirectory: config)
            let code = try #require(created.json["code"] as? String)
            #expect((created.json["qr_payload"] as? String)?.hasPrefix("vettid://enroll?code=\(code)&api=") == true)
            let list = try await run(["invite", "list", "--output", "json"], configDirectory: config)
            #expect((list.json["invitations"] as? [[String: Any]])?.count == 2)
            let revoked = try await run(
                ["invite", "revoke", code.lowercased(), "--output", "json"], configDirectory: config)
            #expect(revoked.json["status"] as? String == "revoked")
            let again = try await run(["invite", "revoke", code, "--output", "json"], configDirectory: config)
            #expect(again.status == 1)
            #expect(again.errorJSON["error"] as? String == "invitation_revoked")
        }
    }

    @Test(.enabled(if: vettid != nil, "the vettid executable was not built"))
    func enrollFromCodeAndQRImageThenAuthenticate() async throws {
        try await LiveServer.withServer(configure: { $0.gate.developmentTokens = ["cli-dev-token"] }) { server in
            let config = server.directory.appendingPathComponent("config")
            let url = server.baseURL.absoluteString
            #expect(
                try await run(
                    ["register", "--email", "vault-cli@example.com", "--server", url], stdin: "vivid-Otter-parsley-42",
                    configDirectory: config
                ).status == 0)
            let created = try await run(["invite", "create", "--output", "json"], configDirectory: config)
            let code = try #require(created.json["code"] as? String)

            // Without the development token the server's required attestation cannot be met.
            let unattested = try await run(
                ["enroll", code, "--profile", "phone", "--server", url, "--output", "json"],
                stdin: "correct-Horse-battery-91",
                configDirectory: config)
            #expect(unattested.status == 1)
            #expect(unattested.errorJSON["error"] as? String == "attestation_invalid")

            // The invitation was redeemed by that attempt's device key; a new invitation, as a QR image.
            let second = try await run(["invite", "create", "--output", "json"], configDirectory: config)
            let payload = try #require(second.json["qr_payload"] as? String)
            let image = server.directory.appendingPathComponent("invite.png")
            try Data(try QRCode(encoding: payload).png()).write(to: image)
            let enrolled = try await run(
                [
                    "enroll", "--qr-image", image.path, "--profile", "laptop", "--development-token", "cli-dev-token",
                    "--output", "json",
                ],
                stdin: "correct-Horse-battery-91", configDirectory: config)
            #expect(enrolled.status == 0, "\(enrolled.stderr)")
            #expect(enrolled.json["status"] as? String == "enrolled")
            #expect(enrolled.json["key_version"] as? Int == 1)

            let authenticated = try await run(
                ["auth", "--profile", "laptop", "--output", "json"], stdin: "correct-Horse-battery-91",
                configDirectory: config)
            #expect(authenticated.status == 0, "\(authenticated.stderr)")
            #expect(authenticated.json["status"] as? String == "authenticated")
            #expect(authenticated.json["key_version"] as? Int == 2)
            // Vault lifecycle with the session `vettid auth` stored.
            let status = try await run(
                ["vault", "status", "--profile", "laptop", "--output", "json"], configDirectory: config)
            #expect(status.status == 0, "\(status.stderr)")
            #expect(status.json["status"] as? String == "enrolled")
            #expect(status.json["credential_version"] as? Int == 2)
            let sync = try await run(
                ["vault", "sync", "--profile", "laptop", "--output", "json"], configDirectory: config)
            #expect(sync.json["status"] as? String == "synced")
            let deploy = try await run(["vault", "deploy", "--output", "json"], configDirectory: config)
            #expect(deploy.status == 0, "\(deploy.stderr)")
            #expect(deploy.json["status"] as? String == "active")
            // The spaces are named as in the NATS account answer.
            let guid = try #require(deploy.json["user_guid"] as? String)
            #expect(deploy.json["owner_space_id"] as? String == "OwnerSpace.\(guid)")
            #expect(deploy.json["message_space_id"] as? String == "MessageSpace.\(guid)")
            #expect(
                try await run(["vault", "status", "--profile", "laptop", "--output", "json"], configDirectory: config)
                    .json[
                        "status"] as? String == "active")
            let watch = try await run(
                ["vault", "watch", "--profile", "laptop", "--interval", "1", "--runs", "2", "--output", "json"],
                configDirectory: config)
            #expect(watch.status == 0, "\(watch.stderr)")
            let runs = watch.stdout.split(separator: "\n").compactMap {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
            }
            #expect(runs.count == 2)
            #expect(runs.allSatisfy { $0["status"] as? String == "synced" })

            let wrong = try await run(
                ["auth", "--profile", "laptop", "--output", "json"], stdin: "not-the-Vault-password-3",
                configDirectory: config)
            #expect(wrong.status == 1)
            #expect(wrong.errorJSON["error"] as? String == "invalid_credentials")
            let none = try await run(
                ["auth", "--profile", "other", "--server", url, "--output", "json"], stdin: "x", configDirectory: config
            )
            #expect(none.status == 1)
            #expect(none.errorJSON["error"] as? String == "not_enrolled")

            // A device profile with no member signed in and no vault session, run without a terminal: the answer
            // says what to run (it used to be `network_error: NoInput`).
            let third = try await run(["invite", "create", "--output", "json"], configDirectory: config)
            let kioskCode = try #require(third.json["code"] as? String)
            let kiosk = try await run(
                [
                    "enroll", kioskCode, "--profile", "kiosk", "--server", url, "--development-token", "cli-dev-token",
                    "--output", "json",
                ],
                stdin: "correct-Horse-battery-91", configDirectory: config)
            #expect(kiosk.status == 0, "\(kiosk.stderr)")
            let noSession = try await run(
                ["vault", "status", "--profile", "kiosk", "--output", "json"], configDirectory: config)
            #expect(noSession.status == 1)
            #expect(noSession.errorJSON["error"] as? String == "reauthentication_required", "\(noSession.stderr)")
            #expect(
                (noSession.errorJSON["error_description"] as? String)?.contains("vettid auth") == true,
                "\(noSession.stderr)")

            let stored = try Data(contentsOf: config.appendingPathComponent("vettid/profiles.store"))
            #expect(
                String(decoding: stored, as: UTF8.self).range(of: "cr_[A-Za-z0-9_-]{22}", options: .regularExpression)
                    == nil,
                "the credential is kept encrypted")
        }
    }

    @Test(.enabled(if: vettid != nil && NATSLive.isAvailable, "the vettid executable or nats-server is missing"))
    func aRevokeWhileNatsServerIsDownDropsTheProfilesToken() async throws {
        try await NATSLive.with(configure: { $0.gate.developmentTokens = ["cli-dev-token-down"] }) { live in
            let config = live.server.directory.appendingPathComponent("config")
            let url = live.server.baseURL.absoluteString
            try await registerAndEnroll(
                "nats-down@example.com", server: url, token: "cli-dev-token-down", configDirectory: config)
            let setup = try await run(["nats", "setup", "--output", "json"], configDirectory: config)
            #expect(setup.status == 0, "\(setup.stderr)")
            let stored = try #require(setup.json["token_id"] as? String)

            live.nats.stop()
            let revoked = try await run(["nats", "revoke", "--output", "json"], configDirectory: config)
            #expect(revoked.status == 1)
            #expect(revoked.errorJSON["error"] as? String == "nats_unavailable", "\(revoked.stderr)")
            let status = try await run(["nats", "status", "--output", "json"], configDirectory: config)
            #expect(status.status == 0, "\(status.stderr)")
            #expect(status.json["stored_token_id"] == nil, "the revoked token is no longer the profile's")
            let active = (status.json["active_tokens"] as? [[String: Any]])?.compactMap { $0["token_id"] as? String }
            #expect(active?.contains(stored) == false, "the server recorded the revocation")
        }
    }

    /// `vettid push register|remove`: the profile's device registers an APNs token over its vault session and
    /// removes it; a malformed token is refused before anything is sent.
    @Test(.enabled(if: vettid != nil && NATSLive.isAvailable, "the vettid executable or nats-server is missing"))
    func pushTokensFromTheCommandLine() async throws {
        try await PushLiveTests.with { live, _ in
            let config = live.server.directory.appendingPathComponent("config")
            try await registerAndEnroll(
                "push-cli@example.com", server: live.server.baseURL.absoluteString,
                token: NATSSDKLiveTests.developmentToken, configDirectory: config)
            #expect(try await run(["auth"], stdin: Self.vaultPassword, configDirectory: config).status == 0)
            let bad = try await run(
                ["push", "register", "--token", "not-hex", "--output", "json"], configDirectory: config)
            #expect(bad.status == 1)
            #expect(bad.errorJSON["error"] as? String == "invalid_request", "\(bad.stderr)")
            let token = String(repeating: "ab", count: 32)
            let registered = try await run(
                ["push", "register", "--token", token.uppercased(), "--sandbox", "--output", "json"],
                configDirectory: config)
            #expect(registered.status == 0, "\(registered.stderr)")
            #expect(registered.json["environment"] as? String == "sandbox")
            #expect(registered.json["bundle_id"] as? String == PushLiveTests.bundleID)
            #expect(!registered.stdout.lowercased().contains(token) && !registered.stderr.lowercased().contains(token))
            let stored = try await live.server.components.store.withDatabase { db in
                try await db.raw("SELECT token, environment FROM push_tokens").all().map {
                    (
                        try $0.decode(column: "token", as: String.self),
                        try $0.decode(column: "environment", as: String.self)
                    )
                }
            }
            #expect(stored.count == 1 && stored.first?.0 == token && stored.first?.1 == "sandbox")
            let removed = try await run(["push", "remove", "--output", "json"], configDirectory: config)
            #expect(removed.status == 0, "\(removed.stderr)")
            let left = try await live.server.components.store.withDatabase { db in
                try await db.raw("SELECT token FROM push_tokens").all().count
            }
            #expect(left == 0)
        }
    }

    /// `vettid vault secret put|get|list|rm` and `vettid vault profile` over the sealed session: JSON results, a read
    /// that asks for the vault password once the device's authentication is older than the window, typed refusals.
    @Test(.enabled(if: vettid != nil && NATSLive.isAvailable, "the vettid executable or nats-server is missing"))
    func vaultSecretsAndProfileFromTheCommandLine() async throws {
        try await NATSLive.with(
            tls: true,
            configure: {
                $0.gate.developmentTokens = ["cli-dev-token-secrets"]
                $0.vault.secretReadWindow = .seconds(2)
            }
        ) { live in
            let config = live.server.directory.appendingPathComponent("config")
            let url = live.server.baseURL.absoluteString
            try await registerAndEnroll(
                "secrets-cli@example.com", server: url, token: "cli-dev-token-secrets", configDirectory: config)
            #expect(try await run(["auth"], stdin: Self.vaultPassword, configDirectory: config).status == 0)
            let caFile = try #require(live.nats.caFile)
            // The token names a mailbox only once the server's mailbox stream exists.
            try await MailboxLiveTests.waitForMailboxes(live)
            let setup = try await run(["nats", "setup", "--ca", caFile], configDirectory: config)
            #expect(setup.status == 0, "\(setup.stderr)")

            // The mailbox: a sign-in elsewhere leaves a notice; `nats inbox` prints it once and acknowledges it.
            try await MailboxLiveTests.signInElsewhere(live, email: "secrets-cli@example.com")
            try await MailboxLiveTests.waitForRelay(live)
            let inbox = try await run(["nats", "inbox", "--output", "json"], configDirectory: config)
            #expect(inbox.status == 0, "\(inbox.stderr)")
            let notices = inbox.stdout.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            #expect(notices.contains { ($0["body"] as? [String: Any])?["kind"] as? String == "login" })
            #expect(notices.last?["arrived"] as? Int == notices.count - 1)
            let inboxAgain = try await run(["nats", "inbox", "--output", "json"], configDirectory: config)
            #expect(inboxAgain.status == 0, "\(inboxAgain.stderr)")
            #expect(inboxAgain.json["arrived"] as? Int == 0, "acknowledged the first time")

            let put = try await run(
                ["vault", "secret", "put", "api-key", "--new", "--output", "json"], stdin: "sk-cli-0451",
                configDirectory: config)
            #expect(put.status == 0, "\(put.stderr)")
            #expect(put.json["name"] as? String == "api-key")
            #expect(put.json["version"] as? Int == 1)
            #expect(put.json["size"] as? Int == "sk-cli-0451".utf8.count, "the value came from standard input")
            let again = try await run(
                ["vault", "secret", "put", "api-key", "other", "--new", "--output", "json"], configDirectory: config)
            #expect(again.status == 1)
            #expect(again.errorJSON["error"] as? String == "version_conflict")

            let list = try await run(["vault", "secret", "list", "--output", "json"], configDirectory: config)
            #expect(list.status == 0, "\(list.stderr)")
            #expect((list.json["secrets"] as? [[String: Any]])?.map { $0["name"] as? String } == ["api-key"])
            #expect((list.json["limits"] as? [String: Any])?["max_secrets"] as? Int == 256)

            // The authentication above is older than the 2 s window now: without a password the read is refused with
            // the vault's code; with one on standard input the CLI authenticates the device and reads.
            try await Task.sleep(for: .seconds(3))
            let locked = try await run(
                ["vault", "secret", "get", "api-key", "--output", "json"], configDirectory: config)
            #expect(locked.status == 1)
            #expect(locked.errorJSON["error"] as? String == "vault_authentication_required")
            let read = try await run(
                ["vault", "secret", "get", "api-key", "--output", "json"], stdin: Self.vaultPassword,
                configDirectory: config)
            #expect(read.status == 0, "\(read.stderr)")
            #expect(read.json["value"] as? String == "sk-cli-0451")
            #expect(read.json["value_base64"] as? String == Data("sk-cli-0451".utf8).base64EncodedString())

            let profile = try await run(
                ["vault", "profile", "--set", "display_name=Ada", "--set", "city=Turin", "--output", "json"],
                configDirectory: config)
            #expect(profile.status == 0, "\(profile.stderr)")
            #expect(profile.json["fields"] as? [String: String] == ["display_name": "Ada", "city": "Turin"])
            let shown = try await run(["vault", "profile"], configDirectory: config)
            #expect(shown.stdout.contains("city: Turin"))
            let badField = try await run(
                ["vault", "profile", "--set", "Bad Field=x", "--output", "json"], configDirectory: config)
            #expect(badField.errorJSON["error"] as? String == "invalid_profile")

            let removed = try await run(
                ["vault", "secret", "rm", "api-key", "--output", "json"], configDirectory: config)
            #expect(removed.status == 0, "\(removed.stderr)")
            let gone = try await run(
                ["vault", "secret", "rm", "api-key", "--output", "json"], configDirectory: config)
            #expect(gone.errorJSON["error"] as? String == "secret_not_found")
            let empty = try await run(["vault", "secret", "list"], configDirectory: config)
            #expect(empty.stdout.contains("no secrets"))
        }
    }

    @Test(.enabled(if: vettid != nil && NATSLive.isAvailable, "the vettid executable or nats-server is missing"))
    func natsSetupSendStatusListenRevokeOverTLS() async throws {
        try await NATSLive.with(tls: true, configure: { $0.gate.developmentTokens = ["cli-dev-token-nats"] }) { live in
            let config = live.server.directory.appendingPathComponent("config")
            let url = live.server.baseURL.absoluteString
            let vaultPassword = Self.vaultPassword
            try await registerAndEnroll(
                "nats-cli@example.com", server: url, token: "cli-dev-token-nats", configDirectory: config)
            #expect(
                try await run(["auth", "--output", "json"], stdin: vaultPassword, configDirectory: config).status == 0)

            let caFile = try #require(live.nats.caFile)
            let setup = try await run(["nats", "setup", "--ca", caFile, "--output", "json"], configDirectory: config)
            #expect(setup.status == 0, "\(setup.stderr)")
            #expect(setup.json["account_created"] as? Bool == true)
            #expect((setup.json["owner_space_id"] as? String)?.hasPrefix("OwnerSpace.") == true)
            #expect((setup.json["message_space_id"] as? String)?.hasPrefix("MessageSpace.") == true)
            #expect((setup.json["endpoint"] as? String)?.hasPrefix("tls://") == true)
            #expect(setup.json["vault_status"] as? String == "enrolled", "the worker read the vault's state")
            let tokenID = try #require(setup.json["token_id"] as? String)
            let again = try await run(["nats", "setup", "--output", "json"], configDirectory: config)
            #expect(again.status == 0, "\(again.stderr)")
            #expect(again.json["account_created"] as? Bool == false, "an existing account is reused")

            let status = try await run(["nats", "status", "--output", "json"], configDirectory: config)
            #expect(status.status == 0, "\(status.stderr)")
            #expect((status.json["active_tokens"] as? [Any])?.count == 2)
            let stored = try #require(status.json["stored_token_id"] as? String)
            #expect(status.json["owner_space_id"] as? String == setup.json["owner_space_id"] as? String)

            let echo = try await run(
                ["nats", "send", "--handler", "echo", "--payload", #"{"n":42}"#, "--output", "json"],
                configDirectory: config)
            #expect(echo.status == 0, "\(echo.stderr)")
            #expect((echo.json["result"] as? [String: Any])?["n"] as? Int == 42)
            let unknown = try await run(
                ["nats", "send", "--handler", "no.such", "--output", "json"], configDirectory: config)
            #expect(unknown.status == 1)
            #expect((unknown.json["error"] as? [String: Any])?["code"] as? String == "unknown_handler")
            let types = try await run(["nats", "send", "--event-types", "--output", "json"], configDirectory: config)
            #expect(
                (types.json["event_types"] as? [[String: Any]])?.contains { $0["handler_id"] as? String == "echo" }
                    == true)
            let badPayload = try await run(
                ["nats", "send", "--handler", "echo", "--payload", "{oops", "--output", "json"], configDirectory: config
            )
            #expect(badPayload.status == 1)
            #expect(badPayload.errorJSON["error"] as? String == "invalid_payload")

            // `listen` hears what the vault sends on the member's forApp subjects (here: a published event-types list).
            // The listener runs on a thread of its own: two commands blocking both cooperative threads of a 2-core
            // machine would starve the in-process server they both talk to.
            let finished = ListenResult()
            let listening = Task {
                await finished.set(
                    try await run(
                        ["nats", "listen", "--count", "1", "--seconds", "20", "--output", "json"],
                        configDirectory: config))
            }
            // Sent again every 250 ms until the listener has heard one (it may not have subscribed yet); 90 s, as
            // long as 60 rounds of a `vettid` run and 250 ms take on a loaded machine.
            let heard = try await eventually(timeout: .seconds(90), poll: .milliseconds(250)) {
                if await finished.value != nil { return true }
                _ = try await run(["nats", "send", "--event-types"], configDirectory: config)
                return false
            }
            _ = try await listening.value
            try #require(heard, "the listener had not finished within 90 s of sends")
            let listened = try #require(await finished.value)
            #expect(listened.status == 0, "\(listened.stderr) \(listened.stdout)")
            #expect(listened.json["type"] as? String == "eventTypes")

            // Without --count, piped: each message reaches the pipe while the listener still runs, and Ctrl-C ends it
            // cleanly (exit 0, nothing lost, no error).
            let streaming = try startStreaming(["nats", "listen", "--output", "json"], configDirectory: config)
            var linesAtFirstSight: [String] = []
            let reached = try await eventually(timeout: .seconds(90), poll: .milliseconds(250)) {
                linesAtFirstSight = streaming.lines
                if !linesAtFirstSight.isEmpty { return true }
                _ = try await run(["nats", "send", "--event-types"], configDirectory: config)
                return false
            }
            try #require(reached, "no message reached the pipe within 90 s while the listener ran")
            let line = try #require(linesAtFirstSight.first)
            #expect(streaming.process.isRunning, "the line arrived before the listener exited")
            // Line by line: a block-buffered pipe would deliver its first bytes only once 4 KiB (a dozen lines) piled up.
            #expect(linesAtFirstSight.count <= 2, "\(linesAtFirstSight.count) lines arrived at once")
            #expect(line.contains(#""type":"eventTypes""#))
            streaming.process.interrupt()
            let interrupted = try await streaming.finished()
            #expect(interrupted.status == 0, "Ctrl-C ends listening cleanly: \(interrupted.stderr)")
            #expect(interrupted.stderr.isEmpty, "\(interrupted.stderr)")
            #expect(interrupted.stdout.hasPrefix(line), "everything printed before the interrupt is kept")

            let revoked = try await run(["nats", "revoke", "--output", "json"], configDirectory: config)
            #expect(revoked.status == 0, "\(revoked.stderr)")
            #expect(revoked.json["token_id"] as? String == stored)
            let old = try await run(["nats", "revoke", tokenID, "--output", "json"], configDirectory: config)
            #expect(old.status == 0, "\(old.stderr)")
            let after = try await run(["nats", "status", "--output", "json"], configDirectory: config)
            #expect((after.json["active_tokens"] as? [Any])?.isEmpty == true)
            #expect(after.json["stored_token_id"] == nil)
            let store = try Data(contentsOf: config.appendingPathComponent("vettid/profiles.store"))
            // A user NKey seed is `SU` and 56 base32 characters; ciphertext may hold "SU" by chance, never a whole seed.
            #expect(
                String(decoding: store, as: UTF8.self).range(of: "SU[A-Z2-7]{56}", options: .regularExpression) == nil,
                "the NATS seed is kept encrypted")
        }
    }

    @Test(.enabled(if: vettid != nil, "the vettid executable was not built"))
    func demoRunsEveryStepAndExitsZero() async throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("vettid-demo-config-\(UUID())")
        let demo = try await run(["demo", "--output", "json"], configDirectory: config)
        #expect(demo.status == 0, "\(demo.stderr)")
        // A clean run prints no log line at all (it used to print a Hummingbird "Waiting on child channel" error).
        #expect(demo.stderr.isEmpty, "\(demo.stderr)")
        let human = try await run(["demo"], configDirectory: config)
        #expect(human.status == 0)
        #expect(human.stderr.isEmpty, "\(human.stderr)")
        #expect(
            !human.stdout.split(separator: "\n").contains { $0.contains(" error ") || $0.hasPrefix("error") },
            "\(human.stdout)")
        #expect(demo.json["ok"] as? Bool == true)
        let steps = try #require(demo.json["steps"] as? [[String: Any]])
        #expect(steps.count >= 39)
        #expect(steps.allSatisfy { $0["ok"] as? Bool == true })
        let names = steps.compactMap { $0["step"] as? String }
        // Every section (member auth, Gate, vault, messaging) runs on the one backend the demo starts first.
        #expect(names.prefix(3) == ["start upstream", "start local APNs", "start backend"])
        #expect(names.filter { $0.hasPrefix("start ") && $0.hasSuffix("backend") } == ["start backend"])
        for expected in [
            "register", "login", "current user", "refresh", "logout", "refuse revoked tokens", "proxied call", "invite",
            "enroll: finalize", "authenticate", "refuse wrong vault password", "refuse forged LAT",
            "nats: connect over TLS",
            "nats: vault status request", "nats: sealed handler request", "vault: store a secret",
            "vault: list secrets",
            "vault: read after vault auth", "vault: profile", "vault: delete the secret", "nats: refuse other space",
            "nats: revoke a token", "push: register token", "mailbox: app away", "push: wake the absent app",
            "mailbox: next connect",
        ] {
            #expect(names.contains(expected), "the demo runs \(expected)")
        }
    }

    /// A `vettid` process whose standard output is read line by line as it is written.
    final class StreamingRun: Sendable {
        let process = Process()
        private let received = NIOLockedValueBox(Data())
        private let errors = Pipe()
        private let exit = NIOLockedValueBox<VettIDTestSupport.ProcessExitWatcher?>(nil)

        /// The complete lines read so far.
        var lines: [String] {
            received.withLockedValue { String(decoding: $0, as: UTF8.self) }.split(separator: "\n").map(String.init)
        }

        fileprivate func start(_ executable: URL, _ arguments: [String], environment: [String: String]) throws {
            let output = Pipe()
            process.executableURL = executable
            process.arguments = arguments
            process.environment = environment
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = output
            process.standardError = errors
            output.fileHandleForReading.readabilityHandler = { [weak self] handle in
                let chunk = handle.availableData
                self?.received.withLockedValue { $0.append(chunk) }
            }
            let watcher = VettIDTestSupport.ProcessExitWatcher(process)
            exit.withLockedValue { $0 = watcher }
            try process.run()
        }

        /// Waits (on a thread of its own, ``onOwnThread(_:)``) for the process to exit.
        func finished() async throws -> Run {
            try await onOwnThread {
                let exit = self.exit.withLockedValue { $0 }
                guard exit?.wait(timeout: .seconds(120)) == true else {
                    exit?.terminate(self.process, grace: .seconds(1))
                    throw CLITestFailure("the streaming vettid command did not exit within 120 s")
                }
                let stderr = self.errors.fileHandleForReading.readDataToEndOfFile()
                Thread.sleep(forTimeInterval: 0.2)  // the last chunk of standard output
                let stdout = self.received.withLockedValue { String(decoding: $0, as: UTF8.self) }
                return Run(
                    status: self.process.terminationStatus, stdout: stdout,
                    stderr: String(decoding: stderr, as: UTF8.self))
            }
        }
    }

    func startStreaming(_ arguments: [String], configDirectory: URL) throws -> StreamingRun {
        guard let executable = Self.vettid else {
            throw CLITestFailure("the vettid executable is not built next to the tests")
        }
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = configDirectory.path
        let streaming = StreamingRun()
        try streaming.start(executable, arguments, environment: environment)
        return streaming
    }

    /// Every client of a run shares the profile's newest `DPoP-Nonce`, and the next run starts with it: only the
    /// profile's very first proof (the login `register` runs) meets `use_dpop_nonce`.
    @Test(.enabled(if: vettid != nil, "the vettid executable was not built"))
    func everyRunAfterTheFirstProofStartsWithTheProfilesNonce() async throws {
        try await LiveServer.withServer(configure: { $0.gate.developmentTokens = ["cli-dev-token"] }) { server in
            let config = server.directory.appendingPathComponent("config")
            try await registerAndEnroll(
                "nonce@example.com", server: server.baseURL.absoluteString, token: "cli-dev-token",
                configDirectory: config)
            #expect(Self.nonceRefusals(server) == 1, "register, invite create and enroll (member session and vault)")
            let authenticated = try await run(
                ["auth", "--output", "json"], stdin: Self.vaultPassword, configDirectory: config)
            #expect(authenticated.status == 0, "\(authenticated.stderr)")
            let whoami = try await run(["whoami"], configDirectory: config)
            #expect(whoami.status == 0, "\(whoami.stderr)")
            #expect(Self.nonceRefusals(server) == 1, "a later run opened with a refused proof")
        }
    }

    /// How many requests the server refused with `use_dpop_nonce`, from its metrics.
    static func nonceRefusals(_ server: LiveServer) -> Int {
        let text = String(decoding: server.components.metrics.exposition(), as: UTF8.self)
        return text.split(separator: "\n")
            .filter { $0.hasPrefix("vettid_dpop_refusals_total{") && $0.contains(#"code="use_dpop_nonce""#) }
            .compactMap { Int($0.split(separator: " ").last ?? "") }
            .reduce(0, +)
    }

    static let vaultPassword = "correct-Horse-battery-91"

    /// Registers `email` on the default profile and enrolls it as its own device with the development `token`.
    func registerAndEnroll(_ email: String, server url: String, token: String, configDirectory config: URL) async throws
    {
        let registered = try await run(
            ["register", "--email", email, "--server", url], stdin: "vivid-Otter-parsley-42", configDirectory: config)
        #expect(registered.status == 0, "\(registered.stderr)")
        let code = try #require(
            try await run(["invite", "create", "--output", "json"], configDirectory: config).json["code"] as? String)
        let enrolled = try await run(
            ["enroll", code, "--development-token", token, "--output", "json"], stdin: Self.vaultPassword,
            configDirectory: config)
        #expect(enrolled.status == 0, "\(enrolled.stderr)")
    }

    /// `--output json` comes from each command's `Encodable` result: the keys are the API's snake_case names
    /// (acronyms included: `userGUID` is `user_guid`), dates ISO 8601, absent optionals left out.
    @Test func jsonResultsUseTheAPIsNames() throws {
        func keys(_ value: some Encodable) throws -> [String: Any] {
            try #require(
                try JSONSerialization.jsonObject(with: try Output.encoder.encode(value)) as? [String: Any])
        }
        let date = Date(timeIntervalSince1970: 1_767_225_600)
        let setup = try keys(
            NATSSetupCommand.Result(
                accountCreated: true, ownerSpaceID: "OwnerSpace.g", messageSpaceID: "MessageSpace.g", tokenID: "t",
                expiresAt: date, endpoint: "tls://n:4222", vaultStatus: "active", workerID: "w", handlers: ["echo"]))
        #expect(
            Set(setup.keys) == [
                "account_created", "owner_space_id", "message_space_id", "token_id", "expires_at", "endpoint",
                "vault_status", "worker_id", "handlers",
            ])
        #expect(setup["expires_at"] as? String == "2026-01-01T00:00:00Z")
        let enrolled = try keys(
            EnrollCommand.Result(
                status: "enrolled", userGUID: "g", credentialID: "c", keyVersion: 1, transactionKeys: 20, server: "s"))
        #expect(
            Set(enrolled.keys) == ["status", "user_guid", "credential_id", "key_version", "transaction_keys", "server"])
        let status = try keys(
            NATSStatusCommand.Result(
                hasAccount: false, activeTokens: [], ownerSpaceID: nil, messageSpaceID: nil, endpoint: nil,
                storedTokenID: nil))
        #expect(Set(status.keys) == ["has_account", "active_tokens"])
        let failure = try keys(CLIFailure.Body(error: "e", errorDescription: "d", reasons: []))
        #expect(Set(failure.keys) == ["error", "error_description", "reasons"])
    }

    @Test func argumentParsing() throws {
        let whoami = try #require(
            try VettIDCommand.parseAsRoot(["whoami", "--profile", "work", "--output", "json"]) as? WhoamiCommand)
        #expect(whoami.global.profile == "work")
        #expect(whoami.global.output == .json)
        #expect(throws: (any Error).self) { _ = try VettIDCommand.parseAsRoot(["whoami", "--profile", "bad profile"]) }
        #expect(throws: (any Error).self) { _ = try VettIDCommand.parseAsRoot(["login"]) }
        #expect(throws: Never.self) { _ = try VettIDCommand.parseAsRoot(["login", "--passkey"]) }
        #expect(throws: (any Error).self) { _ = try VettIDCommand.parseAsRoot(["whoami", "--server", "ftp://x"]) }
        #expect(throws: (any Error).self) { _ = try VettIDCommand.parseAsRoot(["whoami", "--output", "yaml"]) }
    }

    @Test func vettidServerHasEveryVettidServerSubcommand() throws {
        let names = { (commands: [any ParsableCommand.Type]) in commands.map { $0._commandName } }
        #expect(names(ServerCommand.configuration.subcommands) == names(ServerToolCommand.configuration.subcommands))
        #expect(names(ServerCommand.configuration.subcommands).contains("nats-config"))
        #expect(try VettIDCommand.parseAsRoot(["server", "--port", "9999"]) is ServeCommand, "serving is the default")
        #expect(try VettIDCommand.parseAsRoot(["server", "nats-config", "--listen-port", "4333"]) is NATSConfigCommand)
    }

    @Test(.enabled(if: vettid != nil, "the vettid executable was not built"))
    func vettidServerNatsConfigWritesNatsServersConfiguration() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vettid-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let printed = try await run(
            [
                "server", "nats-config", "--data-dir", directory.appendingPathComponent("data").path, "--listen-port",
                "4333",
            ],
            configDirectory: directory)
        #expect(printed.status == 0, "\(printed.stderr)")
        #expect(printed.stdout.contains("operator:"), "an operator-mode configuration")
        #expect(printed.stdout.contains("4333"))
        #expect(printed.stdout.contains("resolver"))
    }
}

struct CLITestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// What a background `vettid nats listen` printed, once it exited.
private actor ListenResult {
    private(set) var value: CLITests.Run?
    func set(_ run: CLITests.Run) { value = run }
}
