// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDAttestation
import VettIDSoftwareAttestation
public import X509

/// The settings of the Gate: App Attest registration, the Gate token, and the streaming proxy.
///
/// Keys (docs/operations.md): `gate_app_id`, `gate_environments`, `gate_trust_software_root`,
/// `gate_software_root_pem_file`, `gate_development_tokens`, `gate_token_ttl_seconds`, `gate_upstreams`,
/// `gate_upstream_api_keys`, `gate_proxy_max_body_bytes`, `gate_upstream_connect_timeout_seconds`,
/// `gate_upstream_read_timeout_seconds`. The description never shows development tokens or API keys.
public struct GateConfiguration: Sendable, CustomStringConvertible {
    /// `"<TeamID>.<bundleID>"`; `nil` disables App Attest registration and the app-attest grant.
    public var appID: String?
    /// The App Attest environments (aaguids) accepted at registration.
    public var allowedEnvironments: Set<AppAttestEnvironment>
    /// Whether ``softwareRoots`` are trust anchors (software attestation, for development and CI). Default false.
    public var trustSoftwareRoot: Bool
    /// Roots of `SoftwareAttestationAuthority` instances, trusted only when ``trustSoftwareRoot`` is true.
    public var softwareRoots: [Certificate]
    /// Opaque tokens accepted by the development grant; empty disables the grant.
    public var developmentTokens: [String]
    /// Lifetime of a Gate access token.
    public var tokenLifetime: Duration
    /// Lifetime of an attestation challenge.
    public var challengeLifetime: Duration
    /// The upstreams by name (the first path segment after `/proxy/`).
    public var upstreams: [String: GateUpstream]
    /// Largest proxied request body in bytes (413 beyond it, also for chunked bodies).
    public var proxyMaxBodyBytes: Int
    /// Time allowed to connect to an upstream.
    public var upstreamConnectTimeout: Duration
    /// Time allowed between reads from an upstream (and for the response head after the request is sent).
    public var upstreamReadTimeout: Duration
    /// Connections kept to each upstream (a soft limit: requests beyond it wait for one).
    public var upstreamMaxConnections: Int

    /// Creates a configuration; the defaults disable App Attest (no app id), the development grant and the proxy.
    public init(
        appID: String? = nil,
        allowedEnvironments: Set<AppAttestEnvironment> = [.production],
        trustSoftwareRoot: Bool = false,
        softwareRoots: [Certificate] = [],
        developmentTokens: [String] = [],
        tokenLifetime: Duration = .seconds(600),
        challengeLifetime: Duration = .seconds(300),
        upstreams: [String: GateUpstream] = [:],
        proxyMaxBodyBytes: Int = 10 << 20,
        upstreamConnectTimeout: Duration = .seconds(5),
        upstreamReadTimeout: Duration = .seconds(60),
        upstreamMaxConnections: Int = 64
    ) {
        self.appID = appID
        self.allowedEnvironments = allowedEnvironments
        self.trustSoftwareRoot = trustSoftwareRoot
        self.softwareRoots = softwareRoots
        self.developmentTokens = developmentTokens
        self.tokenLifetime = tokenLifetime
        self.challengeLifetime = challengeLifetime
        self.upstreams = upstreams
        self.proxyMaxBodyBytes = proxyMaxBodyBytes
        self.upstreamConnectTimeout = upstreamConnectTimeout
        self.upstreamReadTimeout = upstreamReadTimeout
        self.upstreamMaxConnections = upstreamMaxConnections
    }

    public var description: String {
        let environments = allowedEnvironments.map(\.name).sorted().joined(separator: ",")
        return "GateConfiguration(app id: \(appID ?? "none"), environments: \(environments), "
            + "software root trusted: \(trustSoftwareRoot), development tokens: \(developmentTokens.count), "
            + "upstreams: \(upstreams.keys.sorted()))"
    }
}
