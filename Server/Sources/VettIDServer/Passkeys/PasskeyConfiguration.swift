// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDVerification

/// The passkey relying party (`passkey_*` keys; docs/operations.md, "Passkeys"; docs/security.md, "Passkeys").
///
/// Passkeys work without configuration: the relying party id is the host of the public origin (`public_url`, or
/// the address the server listens on; `localhost` when that is a loopback address, since browsers refuse IP
/// addresses as relying party ids) and the one allowed origin is the public origin.
public struct PasskeyConfiguration: Sendable {
    /// The relying party id (`passkey_rp_id`): the registrable domain passkeys are scoped to. Changing it makes
    /// every existing passkey unusable.
    public var rpID: String?
    /// The name authenticators show (`passkey_rp_name`, default `VettID`).
    public var rpName: String = "VettID"
    /// The exact origins ceremonies may run on (`passkey_origins`, comma-separated), e.g. the portal's
    /// `https://vettid.example`; default: the public origin. Apps' ceremonies through `ASAuthorization` carry
    /// `https://` + the relying party id.
    public var origins: [String] = []
    /// Whether ceremonies require user verification (`passkey_user_verification`: `required`, `preferred` (the
    /// default) or `discouraged`).
    public var userVerification: PasskeyRelyingParty.UserVerification = .preferred
    /// The apps (`TEAMID.bundle.id`, `passkey_app_ids`, comma-separated) listed under `webcredentials` in
    /// `/.well-known/apple-app-site-association`, so that they may use this server's passkeys.
    public var appIDs: [String] = []
    /// How long a ceremony's challenge is valid (five minutes, the options' `timeout`).
    public var challengeLifetime: Duration = .seconds(300)

    /// Creates the default configuration.
    public init() {}
}
