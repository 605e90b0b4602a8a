// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// Which APNs service a device token belongs to: a development build's tokens are valid only in the sandbox, an
/// App Store or TestFlight build's only in production.
public enum APNSEnvironment: String, Sendable, Hashable, CaseIterable {
    /// `api.sandbox.push.apple.com`: apps signed for development.
    case sandbox
    /// `api.push.apple.com`: App Store, TestFlight and ad hoc builds.
    case production
}

/// How the server sends wake pushes through the Apple Push Notification service (`apns_*` keys;
/// docs/operations.md, "Push notifications").
///
/// APNs is off until ``keyFile`` is set; then ``keyID``, ``teamID`` and at least one bundle id are required.
public struct APNSConfiguration: Sendable {
    /// The `.p8` file of the APNs authentication key (`apns_key_file`), PKCS#8 PEM as Apple hands it out. Secret:
    /// readable by the server only.
    public var keyFile: String?
    /// The 10-character id of that key (`apns_key_id`), sent as the provider token's `kid`.
    public var keyID: String?
    /// The 10-character Apple developer team id (`apns_team_id`), sent as the provider token's `iss`.
    public var teamID: String?
    /// The bundle ids the server may push to (`apns_bundle_ids`, comma-separated); the push's `apns-topic`.
    public var bundleIDs: Set<String>
    /// The production endpoint (`apns_production_url`, default `https://api.push.apple.com`).
    public var productionURL: String
    /// The sandbox endpoint (`apns_sandbox_url`, default `https://api.sandbox.push.apple.com`).
    public var sandboxURL: String
    /// A PEM bundle of CA certificates to trust for the endpoints (`apns_ca_file`); default: the system roots.
    /// Only for a local or test APNs server.
    public var caFile: String?
    /// How long APNs keeps a push for a device that is offline (`apns_expiration_seconds`, default 86,400): the
    /// push's `apns-expiration` is the time of sending plus this.
    public var expiration: Duration
    /// How old the provider token gets before a new one is signed (`apns_token_refresh_seconds`, default 2,400;
    /// 1,200 to 3,300): Apple refuses tokens older than an hour and throttles a provider that changes its token more
    /// often than every 20 minutes.
    public var tokenRefreshInterval: Duration
    /// Pushes waiting to be sent at most (`apns_queue_capacity`, default 10,000); a push for a device that already
    /// has one waiting replaces it, a push beyond this is dropped and counted.
    public var queueCapacity: Int
    /// Attempts per push at most, the first included (`apns_max_attempts`, default 5), for answers worth retrying
    /// (429, 5xx, a lost connection).
    public var maxAttempts: Int
    /// Pushes in flight at once over the environment's HTTP/2 connection (`apns_max_concurrent`, default 16).
    public var maxConcurrentSends: Int
    /// How long one request to APNs may take (`apns_request_timeout_seconds`, default 10).
    public var requestTimeout: Duration
    /// The alert's neutral title: what the device shows when its Notification Service Extension cannot replace it.
    public var alertTitle: String
    /// The alert's neutral body.
    public var alertBody: String

    public init(
        keyFile: String? = nil,
        keyID: String? = nil,
        teamID: String? = nil,
        bundleIDs: Set<String> = [],
        productionURL: String = "https://api.push.apple.com",
        sandboxURL: String = "https://api.sandbox.push.apple.com",
        caFile: String? = nil,
        expiration: Duration = .seconds(86_400),
        tokenRefreshInterval: Duration = .seconds(40 * 60),
        queueCapacity: Int = 10_000,
        maxAttempts: Int = 5,
        maxConcurrentSends: Int = 16,
        requestTimeout: Duration = .seconds(10),
        alertTitle: String = "VettID",
        alertBody: String = "You have a new message."
    ) {
        self.keyFile = keyFile
        self.keyID = keyID
        self.teamID = teamID
        self.bundleIDs = bundleIDs
        self.productionURL = productionURL
        self.sandboxURL = sandboxURL
        self.caFile = caFile
        self.expiration = expiration
        self.tokenRefreshInterval = tokenRefreshInterval
        self.queueCapacity = queueCapacity
        self.maxAttempts = maxAttempts
        self.maxConcurrentSends = maxConcurrentSends
        self.requestTimeout = requestTimeout
        self.alertTitle = alertTitle
        self.alertBody = alertBody
    }

    /// Whether pushes are configured at all (a key file is set).
    public var isEnabled: Bool { keyFile != nil }

    /// The base URL (scheme, host, port) of `environment`'s endpoint.
    public func baseURL(for environment: APNSEnvironment) -> String {
        let url = environment == .production ? productionURL : sandboxURL
        return url.hasSuffix("/") ? String(url.dropLast()) : url
    }
}
