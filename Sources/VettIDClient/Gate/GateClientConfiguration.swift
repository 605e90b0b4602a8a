// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
public import Logging
public import OpenAPIRuntime
public import VettIDCore

extension ConfigurationError.Code {
    /// The Apple team id is not 10 upper-case letters or digits.
    public static let invalidTeamID = ConfigurationError.Code(rawValue: "invalid_team_id")
    /// The bundle id is empty or contains characters a bundle id cannot have.
    public static let invalidBundleID = ConfigurationError.Code(rawValue: "invalid_bundle_id")
    /// A numeric setting is out of range.
    public static let invalidValue = ConfigurationError.Code(rawValue: "invalid_value")
}

/// How a ``GateClient`` reaches the Gate and identifies the app. Validated when created.
public struct GateClientConfiguration: Sendable {
    /// The Gate's base URL (`http`/`https` with a host; a path prefix is allowed).
    public let baseURL: URL
    /// The Apple developer team id (10 upper-case letters or digits).
    public let teamID: String
    /// The app's bundle id.
    public let bundleID: String
    /// The log level applied to ``logger``.
    public let logLevel: Logger.Level
    /// Where the client logs (credentials, nonces, challenges and key ids are never logged).
    public let logger: Logger
    /// The HTTP transport (``DefaultTransport/make()`` unless given).
    public let transport: any ClientTransport
    /// A cached token is replaced when it expires within this many seconds (default 60).
    public let tokenRefreshMargin: TimeInterval
    /// The largest proxied response body read into memory (default 10 MiB).
    public let maximumResponseBodySize: Int
    /// The clock for token expiry and proof `iat`.
    public let clock: any WallClock

    /// The App Attest app id, `"<teamID>.<bundleID>"`.
    public var appID: String { "\(teamID).\(bundleID)" }

    /// Creates a configuration.
    /// - Throws: ``ConfigurationError`` with `invalid_base_url`, `invalid_team_id`, `invalid_bundle_id` or
    ///   `invalid_value`.
    public init(
        baseURL: URL,
        teamID: String,
        bundleID: String,
        logLevel: Logger.Level = .info,
        logger: Logger = Logger(label: "dev.vettid.gate"),
        transport: (any ClientTransport)? = nil,
        tokenRefreshMargin: TimeInterval = 60,
        maximumResponseBodySize: Int = 10 * 1024 * 1024,
        clock: any WallClock = SystemWallClock()
    ) throws(ConfigurationError) {
        try Self.validateIdentity(baseURL: baseURL, teamID: teamID, bundleID: bundleID)
        guard tokenRefreshMargin >= 0, maximumResponseBodySize > 0 else {
            throw ConfigurationError(
                code: .invalidValue, message: "The refresh margin must be >= 0 and the body limit > 0.")
        }
        self.baseURL = baseURL
        self.teamID = teamID
        self.bundleID = bundleID
        self.logLevel = logLevel
        var logger = logger
        logger.logLevel = logLevel
        self.logger = logger
        self.transport = transport ?? DefaultTransport.make()
        self.tokenRefreshMargin = tokenRefreshMargin
        self.maximumResponseBodySize = maximumResponseBodySize
        self.clock = clock
    }

    /// Creates a configuration from a URL string and a log level name (`trace`, `debug`, `info`, `notice`,
    /// `warning`, `error`, `critical`), as a command line or a plist provides them.
    /// - Throws: ``ConfigurationError``; an unknown level name is `invalid_value`.
    public init(
        baseURL string: String,
        teamID: String,
        bundleID: String,
        logLevel levelName: String,
        transport: (any ClientTransport)? = nil
    ) throws(ConfigurationError) {
        guard let url = URL(string: string) else {
            throw ConfigurationError(code: .invalidBaseURL, message: "'\(string)' is not a URL.")
        }
        guard let level = Logger.Level(rawValue: levelName.lowercased()) else {
            throw ConfigurationError(code: .invalidValue, message: "'\(levelName)' is not a log level.")
        }
        try self.init(baseURL: url, teamID: teamID, bundleID: bundleID, logLevel: level, transport: transport)
    }

    /// Checks the backend's URL and the app's identity.
    /// - Throws: ``ConfigurationError`` `invalid_base_url`, `invalid_team_id` or `invalid_bundle_id`.
    static func validateIdentity(baseURL: URL, teamID: String, bundleID: String) throws(ConfigurationError) {
        do {
            try APIClientConfiguration.validate(baseURL)
        } catch let error as ConfigurationError {
            throw error
        } catch {
            throw ConfigurationError(code: .invalidBaseURL, message: "The base URL is not valid.")
        }
        guard isValidTeamID(teamID) else {
            throw ConfigurationError(
                code: .invalidTeamID, message: "The team id must be 10 upper-case letters or digits.")
        }
        guard isValidBundleID(bundleID) else {
            throw ConfigurationError(
                code: .invalidBundleID, message: "The bundle id '\(bundleID)' is not a valid bundle id.")
        }
    }

    static func isValidTeamID(_ teamID: String) -> Bool {
        teamID.utf8.count == 10
            && teamID.utf8.allSatisfy {
                ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z"))
                    || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
            }
    }

    static func isValidBundleID(_ bundleID: String) -> Bool {
        !bundleID.isEmpty && bundleID.utf8.count <= 255 && !bundleID.hasPrefix(".") && !bundleID.hasSuffix(".")
            && bundleID.utf8.allSatisfy { byte in
                (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                    || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                    || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
                    || byte == UInt8(ascii: ".")
            }
    }
}
