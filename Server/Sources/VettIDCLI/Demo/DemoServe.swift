// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Logging
import VettIDCore
import VettIDCrypto
import VettIDServer

/// `vettid demo --serve`: a backend on embedded defaults left running with the member portal, so a person can click
/// through it (or a browser test can drive it). It starts a local nats-server (TLS, operator mode) so messaging
/// tokens can be issued and revoked, accepts a development attestation token so the `vettid` CLI can enroll a
/// device from the portal's QR code, and registers a member to sign in with.
struct DemoServe {
    /// What the running backend offers; printed once as text or one JSON line.
    struct Announcement: Encodable {
        let event = "serving"
        let baseURL: String
        let portalURL: String
        let memberEmail: String
        let memberPassword: String
        let developmentAttestationToken: String
        let natsURL: String?
        let natsCAFile: String?
        let dataDirectory: String

        enum CodingKeys: String, CodingKey {
            case event, baseURL = "base_url", portalURL = "portal_url", memberEmail = "member_email"
            case memberPassword = "member_password", developmentAttestationToken = "development_attestation_token"
            case natsURL = "nats_url", natsCAFile = "nats_ca_file", dataDirectory = "data_directory"
        }
    }

    let port: Int
    let output: OutputFormat
    let logger: Logger

    func run() async throws {
        // Signals are caught from the start: an interrupt while nats-server starts still stops it and removes the data.
        let (stops, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let interrupts = InterruptSignals { continuation.yield() }
        defer { interrupts.cancel() }
        let token = "demo-" + Base64URL.encode((0..<24).map { _ in UInt8.random(in: 0...255) })
        let server = try await LoopbackServer.start(label: "vettid-demo-serve", logger: logger, nats: .tls) {
            $0.port = port
            $0.gate.developmentTokens = [token]
        }
        let email = "member-\(UUID().uuidString.prefix(8).lowercased())@example.com"
        let password = "vivid-Otter-parsley-42"
        do {
            _ = try await server.components.auth.register(
                email: email, password: password, origin: .none, logger: logger)
        } catch {
            await server.stop()
            throw error
        }
        let announcement = Announcement(
            baseURL: server.baseURL.absoluteString, portalURL: server.baseURL.absoluteString + "/portal",
            memberEmail: email, memberPassword: password, developmentAttestationToken: token,
            natsURL: server.nats?.url, natsCAFile: server.nats?.caFile, dataDirectory: server.directory.path)
        print(Self.render(announcement, output), terminator: "")
        fflush(nil)  // a reader waits for this line; `stdout` itself is a C global Swift 6 will not touch

        for await _ in stops { break }
        await server.stop()
        if output == .human { print("stopped; temporary data removed") }
    }

    static func render(_ announcement: Announcement, _ output: OutputFormat) -> String {
        switch output {
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return String(decoding: (try? encoder.encode(announcement)) ?? Data(), as: UTF8.self) + "\n"
        case .human:
            return """
                The VettID backend is running with the member portal.

                  Portal:    \(announcement.portalURL)
                  Sign in:   \(announcement.memberEmail) / \(announcement.memberPassword)
                  API:       \(announcement.baseURL)
                  NATS:      \(announcement.natsURL ?? "not running") (CA \(announcement.natsCAFile ?? "-"))

                Enroll a device from an invitation's QR code with the CLI:
                  vettid enroll --qr-image <saved QR code> --development-token \(announcement.developmentAttestationToken)

                Press Ctrl-C to stop (the temporary data in \(announcement.dataDirectory) is removed).

                """
        }
    }
}
