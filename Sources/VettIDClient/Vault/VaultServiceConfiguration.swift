// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
public import Logging
public import OpenAPIRuntime
public import VettIDCore

/// How a ``VaultService`` reaches the server. Validated when created; immutable.
public struct VaultServiceConfiguration: Sendable {
    /// The API's base URL (`http`/`https` with a host; a path prefix is allowed).
    public let baseURL: URL
    /// The device type sent at `enrollStart`.
    public let deviceType: VaultDeviceType
    /// An optional device id sent at `enrollStart` (at most 128 characters).
    public let deviceID: String?
    /// Where the service logs (tokens, proofs, LATs, passwords and envelopes are never logged).
    public let logger: Logger
    /// The HTTP transport (``DefaultTransport/make()`` unless given).
    public let transport: any ClientTransport
    /// The ``SecureStore`` key of the credential item.
    public let credentialStorageKey: String
    /// The clock for token expiries and proof `iat`.
    public let clock: any WallClock
    /// Runs when status or sync finds no usable vault session or gets a 401 `invalid_token` (once per call);
    /// `nil` makes those calls throw `reauthentication_required`.
    public let reauthenticate: VaultReauthenticator?

    /// The ``SecureStore`` key of the vault session token: ``credentialStorageKey`` + `.session`.
    public var sessionStorageKey: String { credentialStorageKey + ".session" }

    /// Creates a configuration.
    /// - Throws: ``ConfigurationError`` `invalid_base_url`, or `invalid_value` for an empty or too long device id
    ///   or an unknown device type.
    public init(
        baseURL: URL,
        deviceType: VaultDeviceType = .current,
        deviceID: String? = nil,
        logger: Logger = Logger(label: "dev.vettid.vault"),
        transport: (any ClientTransport)? = nil,
        credentialStorageKey: String = "vettid.vault.credential",
        clock: any WallClock = SystemWallClock(),
        reauthenticate: VaultReauthenticator? = nil
    ) throws(ConfigurationError) {
        do {
            try APIClientConfiguration.validate(baseURL)
        } catch let error as ConfigurationError {
            throw error
        } catch {
            throw ConfigurationError(code: .invalidBaseURL, message: "The base URL is not valid.")
        }
        if let deviceID, deviceID.isEmpty || deviceID.count > 128 {
            throw ConfigurationError(code: .invalidValue, message: "The device id must be 1 to 128 characters.")
        }
        guard [VaultDeviceType.ios, .macos, .linux, .android, .cli].contains(deviceType) else {
            throw ConfigurationError(code: .invalidValue, message: "Unknown device type '\(deviceType)'.")
        }
        guard !credentialStorageKey.isEmpty else {
            throw ConfigurationError(code: .invalidValue, message: "The credential storage key must not be empty.")
        }
        self.baseURL = baseURL
        self.deviceType = deviceType
        self.deviceID = deviceID
        self.logger = logger
        self.transport = transport ?? DefaultTransport.make()
        self.credentialStorageKey = credentialStorageKey
        self.clock = clock
        self.reauthenticate = reauthenticate
    }

    /// Creates a configuration for the API origin of a scanned invitation.
    ///
    /// Only do this for origins the app trusts (for example an allow-list); otherwise build the configuration
    /// from the app's own base URL and let ``VaultEnrollment/start(_:)`` refuse other origins.
    public init(
        invitation: EnrollmentInvitationLink,
        deviceType: VaultDeviceType = .current,
        deviceID: String? = nil,
        logger: Logger = Logger(label: "dev.vettid.vault"),
        transport: (any ClientTransport)? = nil,
        credentialStorageKey: String = "vettid.vault.credential",
        reauthenticate: VaultReauthenticator? = nil
    ) throws(ConfigurationError) {
        try self.init(
            baseURL: invitation.apiOrigin,
            deviceType: deviceType,
            deviceID: deviceID,
            logger: logger,
            transport: transport,
            credentialStorageKey: credentialStorageKey,
            reauthenticate: reauthenticate
        )
    }
}
