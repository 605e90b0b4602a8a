// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDAttestation
public import X509

// Settings of an App Attest verifier.

extension AppAttestVerifier {
    /// The immutable settings of an ``AppAttestVerifier``.
    public struct Configuration: Sendable {
        /// The app id, `"<TeamID>.<bundleID>"`.
        public var appID: String
        /// The environments whose attestations are accepted.
        public var allowedEnvironments: Set<AppAttestEnvironment>
        /// The trust anchors. Defaults to Apple's root only; add a `SoftwareAttestationAuthority` root only
        /// in deployments that accept software attestation (development, CI).
        public var trustedRoots: [Certificate]
        /// The RFC 5280 policy for the chain. `RFC5280Policy()` checks expiry at the current time; tests
        /// pass a fixed time.
        public var chainPolicy: RFC5280Policy

        /// Creates a configuration.
        public init(
            appID: String,
            allowedEnvironments: Set<AppAttestEnvironment> = [.production],
            trustedRoots: [Certificate] = [AppleAppAttestationRoot.certificate],
            chainPolicy: RFC5280Policy = RFC5280Policy()
        ) {
            self.appID = appID
            self.allowedEnvironments = allowedEnvironments
            self.trustedRoots = trustedRoots
            self.chainPolicy = chainPolicy
        }
    }
}
