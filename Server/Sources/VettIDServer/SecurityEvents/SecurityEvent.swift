// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// Something that happened to a member's account that the member should be able to see: a sign-in, a device
/// enrolled or revoked, an invitation, a token revoked, the vault deployed.
///
/// Events are written by the services that make the change (so the API and the portal record the same thing) and
/// are shown to the member on the portal's security page. They hold no secret: no token, code or password, only
/// what happened, when, from which address and client, and a short public detail (a device type, a label).
public struct SecurityEvent: Sendable, Equatable {
    /// What happened. An open set: a newer server may record kinds an older portal shows by name.
    public struct Kind: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let registered = Kind(rawValue: "registered")
        public static let login = Kind(rawValue: "login")
        public static let loginFailed = Kind(rawValue: "login_failed")
        public static let logout = Kind(rawValue: "logout")
        public static let deviceEnrolled = Kind(rawValue: "device_enrolled")
        public static let deviceRevoked = Kind(rawValue: "device_revoked")
        public static let invitationCreated = Kind(rawValue: "invitation_created")
        public static let invitationRevoked = Kind(rawValue: "invitation_revoked")
        public static let natsTokenRevoked = Kind(rawValue: "nats_token_revoked")
        public static let passkeyAdded = Kind(rawValue: "passkey_added")
        public static let passkeyRenamed = Kind(rawValue: "passkey_renamed")
        public static let passkeyRemoved = Kind(rawValue: "passkey_removed")
        public static let passkeySignInFailed = Kind(rawValue: "passkey_sign_in_failed")
        public static let vaultDeployed = Kind(rawValue: "vault_deployed")
    }

    /// Where the request came from.
    public struct Origin: Sendable, Equatable {
        /// The client's address as the server saw it (after `trust_forwarded_for`).
        public var ip: String?
        /// The client's own description (`User-Agent`), cut to ``maximumClientLength`` characters.
        public var client: String?

        /// The longest `client` kept.
        public static let maximumClientLength = 200

        public init(ip: String?, client: String?) {
            self.ip = ip
            self.client = client.map { String($0.prefix(Self.maximumClientLength)) }
        }

        /// No request (a command-line tool acting on the store).
        public static let none = Origin(ip: nil, client: nil)
    }

    public let id: UUID
    public let memberID: UUID
    public let kind: Kind
    public let occurredAt: Date
    public let origin: Origin
    /// A short public detail (a device type, an invitation label); never a secret.
    public let detail: String?

    public init(id: UUID = UUID(), memberID: UUID, kind: Kind, occurredAt: Date, origin: Origin, detail: String?) {
        self.id = id
        self.memberID = memberID
        self.kind = kind
        self.occurredAt = occurredAt
        self.origin = origin
        self.detail = detail.map { String($0.prefix(200)) }
    }
}
