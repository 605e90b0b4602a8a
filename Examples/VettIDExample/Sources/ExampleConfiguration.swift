// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import VettIDClient

/// Where the example app's server is and who the app is.
struct ExampleConfiguration: Sendable {
    /// The server's origin: a local `vettid server` by default (the simulator reaches the Mac's localhost).
    let serverURL: URL
    /// The Apple team id in the app's App Attest key id (`<team>.<bundle>`), as the server is configured with.
    let teamID: String
    /// The app's bundle identifier (project.yml's `PRODUCT_BUNDLE_IDENTIFIER`).
    let bundleID: String
    /// The server's development token, for the simulator and Macs, which have no App Attest.
    let developmentToken: String?
    /// The APNs environment of this build's `aps-environment` entitlement, from Info.plist's `VettIDAPSEnvironment`
    /// (project.yml sets both per configuration); `nil` when missing: no device token is sent.
    let pushEnvironment: PushEnvironment?

    /// Reads `VETTID_SERVER_URL`, `VETTID_TEAM_ID` and `VETTID_DEVELOPMENT_TOKEN` from the scheme's environment,
    /// and the push environment from Info.plist.
    static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment)
        -> ExampleConfiguration
    {
        let apsEnvironment = Bundle.main.object(forInfoDictionaryKey: "VettIDAPSEnvironment") as? String
        let fallback = URL(string: "http://localhost:8080")!
        return ExampleConfiguration(
            serverURL: environment["VETTID_SERVER_URL"].flatMap { URL(string: $0) } ?? fallback,
            teamID: environment["VETTID_TEAM_ID"] ?? "ABCDE12345",
            bundleID: Bundle.main.bundleIdentifier ?? "dev.vettid.example",
            developmentToken: environment["VETTID_DEVELOPMENT_TOKEN"],
            pushEnvironment: apsEnvironment.flatMap { PushEnvironment(apsEnvironment: $0) })
    }
}
