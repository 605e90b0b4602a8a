// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Logging
import VettIDAttestation
import VettIDLocalAPNS
import VettIDServer
import VettIDSoftwareAttestation

/// The one backend every section of the demo runs on: the server on loopback with SQLite in a temporary directory,
/// nats-server in operator mode over TLS, the Gate proxying to a local echo API, and App Attest trusting only the
/// demo's software root (plus one development token, the Gate's path for a device without App Attest), and wake
/// pushes to a local APNs (HTTP/2 + TLS on loopback, checking the provider token as Apple does).
@MainActor
struct DemoBackend {
    /// The app id the demo's devices attest for (team id and bundle id).
    static let appID = "VETTIDDEMO.dev.vettid.demo"
    /// The bundle id the demo's device registers its push token for.
    static let pushBundleID = "dev.vettid.example"

    let server: LoopbackServer
    let upstream: DemoUpstream
    /// Where the server's wake pushes go.
    let apns: LocalAPNSServer
    /// The local APNs key and CA (removed on stop).
    let apnsDirectory: String
    let authority: SoftwareAttestationAuthority
    let developmentToken: String

    /// Starts the upstream and the backend, as the demo's first steps.
    static func start(reporter: DemoReporter, logger: Logger) async throws -> DemoBackend {
        let upstream = try await reporter.step("start upstream") {
            let upstream = try await DemoUpstream.start()
            return (upstream, "echo API on \(upstream.baseURL.absoluteString) (Hummingbird, loopback)")
        }
        var apns: LocalAPNSServer?
        let apnsDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vettid-demo-apns-\(UUID().uuidString)"
        ).path
        do {
            let pairing = try await reporter.step("start local APNs") {
                let pairing = try await LocalAPNSServer.paired(bundleIDs: [pushBundleID], directory: apnsDirectory)
                return (pairing, "\(pairing.server.baseURL) (HTTP/2 + TLS, CA generated for this run)")
            }
            apns = pairing.server
            let authority = try SoftwareAttestationAuthority.generate()
            let developmentToken = UUID().uuidString
            var gate = GateConfiguration(
                appID: appID,
                allowedEnvironments: [.development],
                trustSoftwareRoot: true,
                softwareRoots: [authority.rootCertificate],
                developmentTokens: [developmentToken],
                upstreams: ["demo": GateUpstream(baseURL: upstream.baseURL.absoluteString + "/api")]
            )
            gate.tokenLifetime = .seconds(600)
            let server = try await reporter.step("start backend") {
                let server = try await LoopbackServer.start(label: "vettid-demo", logger: logger, nats: .tls) {
                    $0.gate = gate
                    $0.apns = pairing.configuration
                }
                return (
                    server,
                    "\(server.baseURL.absoluteString), SQLite in \(server.directory.path); Gate to the echo API; "
                        + "App Attest: the demo's software root only; nats-server (operator mode, TLS) at "
                        + "\(server.nats?.url ?? "-"); wake pushes to the local APNs"
                )
            }
            return DemoBackend(
                server: server, upstream: upstream, apns: pairing.server, apnsDirectory: apnsDirectory,
                authority: authority,
                developmentToken: developmentToken)
        } catch {
            await apns?.stop()
            try? FileManager.default.removeItem(atPath: apnsDirectory)
            await upstream.stop()
            throw error
        }
    }

    /// Stops the backend and the upstream; the temporary data is removed.
    func stop() async {
        await server.stop()
        await apns.stop()
        try? FileManager.default.removeItem(atPath: apnsDirectory)
        await upstream.stop()
    }
}
