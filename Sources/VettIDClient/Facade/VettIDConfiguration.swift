// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
public import Logging
public import OpenAPIRuntime
public import VettIDCore

/// What ``VettID`` needs: where the backend is, who the app is, and (for simulators, Linux and CI) the server's
/// development token. Everything else has a platform default (``PlatformCapabilities``).
public struct VettIDConfiguration: Sendable {
    /// Where the SDK keeps its secrets.
    public enum Storage: Sendable {
        /// The platform's: the Keychain (service = the bundle id) on Apple platforms; elsewhere an encrypted file
        /// in `directory` (default `$XDG_DATA_HOME/<bundle id>`, else `~/.local/share/<bundle id>`).
        case platformDefault(directory: URL? = nil)
        /// This store.
        case store(any SecureStore)
    }

    /// The backend (API and Gate on one origin).
    public let baseURL: URL
    /// The Apple team id (10 upper-case letters or digits).
    public let teamID: String
    /// The app's bundle id.
    public let bundleID: String
    /// The server's development token, used where App Attest is unavailable (simulator, Linux); `nil` in
    /// production apps.
    public let developmentToken: String?
    /// Where secrets are kept.
    public let storage: Storage
    /// The platform the defaults are picked for (``PlatformCapabilities/current`` unless a test says otherwise).
    public let platform: PlatformCapabilities
    /// Where the SDK logs (never secrets). By default ``PlatformLogger/make(subsystem:category:policy:)`` for the
    /// bundle id: Console.app on Apple platforms, the process's swift-log set-up elsewhere, `info` and above.
    public let logger: Logger
    /// The HTTP transport (the platform's default unless given).
    public let transport: (any ClientTransport)?
    /// The clock for proofs and expiry checks.
    public let clock: any WallClock

    /// Creates a configuration.
    ///
    /// `logger`: `nil` picks ``PlatformLogger``'s default; pass `PlatformLogger.make(subsystem:policy:)` with
    /// `UnifiedLogPolicy(threshold: .off)` to silence the SDK.
    /// - Throws: ``ConfigurationError`` `invalid_base_url`, `invalid_team_id`, `invalid_bundle_id`, or `invalid_value`
    ///   for an empty development token.
    public init(
        baseURL: URL,
        teamID: String,
        bundleID: String,
        developmentToken: String? = nil,
        storage: Storage = .platformDefault(),
        platform: PlatformCapabilities = .current,
        logger: Logger? = nil,
        transport: (any ClientTransport)? = nil,
        clock: any WallClock = SystemWallClock()
    ) throws(ConfigurationError) {
        try GateClientConfiguration.validateIdentity(baseURL: baseURL, teamID: teamID, bundleID: bundleID)
        if let developmentToken, developmentToken.isEmpty {
            throw ConfigurationError(code: .invalidValue, message: "The development token must not be empty.")
        }
        self.baseURL = baseURL
        self.teamID = teamID
        self.bundleID = bundleID
        self.developmentToken = developmentToken
        self.storage = storage
        self.platform = platform
        self.logger = logger ?? PlatformLogger.make(subsystem: bundleID)
        self.transport = transport
        self.clock = clock
    }

    /// The encrypted-file directory of ``Storage/platformDefault(directory:)`` when none is given.
    static func defaultDirectory(bundleID: String, environment: [String: String]) -> URL {
        let base =
            environment["XDG_DATA_HOME"].map { URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: environment["HOME"] ?? NSTemporaryDirectory()).appendingPathComponent(
                ".local/share")
        return base.appendingPathComponent(bundleID)
    }
}
