// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import ArgumentParser
import Foundation

/// How results are printed.
public enum OutputFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case human
    case json
}

/// Options every client command takes.
public struct GlobalOptions: ParsableArguments {
    @Option(
        name: .customLong("server"),
        help: "Base URL of the VettID API (default: the profile's, else http://127.0.0.1:8080).")
    var serverURL: String?

    @Option(help: "Named profile: its server and session are kept apart from other profiles'.")
    var profile: String = "default"

    @Option(help: "Output format: human or json.")
    var output: OutputFormat = .human

    @Option(
        name: .customLong("config-dir"),
        help: "Where profiles are kept (default: $XDG_CONFIG_HOME/vettid or ~/.config/vettid)."
    )
    var configDirectory: String?

    public init() {}

    public func validate() throws {
        guard profile.range(of: #"^[A-Za-z0-9_-]{1,64}$"#, options: .regularExpression) != nil else {
            throw ValidationError("--profile must be 1 to 64 letters, digits, '-' or '_'")
        }
        if let serverURL {
            guard let url = URL(string: serverURL), let scheme = url.scheme, ["http", "https"].contains(scheme),
                url.host != nil
            else {
                throw ValidationError("--server must be an http(s) URL such as https://api.example.com")
            }
        }
    }

    /// The configuration directory in effect.
    var resolvedConfigDirectory: URL {
        if let configDirectory { return URL(fileURLWithPath: configDirectory) }
        let environment = ProcessInfo.processInfo.environment
        if let xdg = environment["XDG_CONFIG_HOME"], !xdg.isEmpty {
            return URL(fileURLWithPath: xdg).appendingPathComponent("vettid")
        }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".config/vettid")
    }
}
