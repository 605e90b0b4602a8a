// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import ArgumentParser
import Foundation
import VettIDClient

/// `vettid push`: the profile's device's APNs token, for terminals and tests (an app registers the token the system
/// hands it; docs/protocol.md 7.6).
public struct PushCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Register or remove this device's APNs token for wake pushes (needs an enrolled profile).",
        subcommands: [PushRegisterCommand.self, PushRemoveCommand.self]
    )

    public init() {}
}

/// `vettid push register --token HEX [--sandbox] [--bundle-id ID]`.
public struct PushRegisterCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "register",
        abstract: "Register an APNs device token for this device (replacing the one it had).",
        discussion: """
            The server then sends the token a content-free alert push whenever this device's mailbox gets a \
            message while the device is not connected. The token is a secret to logs: it is never printed back.
            """)

    @OptionGroup var global: GlobalOptions
    @Option(help: "The APNs device token, as hex (64 to 200 digits).")
    var token: String
    @Flag(help: "The token is a sandbox token (a development-signed app); production otherwise.")
    var sandbox = false
    @Option(name: .customLong("bundle-id"), help: "The app the pushes are for (one of the server's apns_bundle_ids).")
    var bundleID = "dev.vettid.example"

    public init() {}

    struct Registered: Encodable {
        let environment: String
        let bundle_id: String
        let registered_at: Date
    }

    @MainActor
    public func run() async throws {
        try await CLIContext.run(global) { context in
            let token = try PushDeviceToken(hex: token)
            let registration = try await VaultCommand.service(context).registerPushToken(
                token, environment: sandbox ? .sandbox : .production, bundleID: bundleID)
            context.output.emit(
                "push token registered (\(registration.environment.rawValue), \(registration.bundleID))",
                json: Registered(
                    environment: registration.environment.rawValue, bundle_id: registration.bundleID,
                    registered_at: registration.registeredAt))
        }
    }
}

/// `vettid push remove`.
public struct PushRemoveCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Remove this device's APNs token: no more wake pushes.")

    @OptionGroup var global: GlobalOptions

    public init() {}

    @MainActor
    public func run() async throws {
        try await CLIContext.run(global) { context in
            try await VaultCommand.service(context).removePushToken()
            context.output.emit("push token removed", json: ["removed": true])
        }
    }
}
