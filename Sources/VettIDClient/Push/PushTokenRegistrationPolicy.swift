// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
public import Foundation
import VettIDCrypto

/// When an app sends its APNs token to the server (docs/protocol.md 7.6): the first time, whenever something the
/// server keeps changes (the token, its APNs environment, the bundle id, the device), and again once the last
/// registration is older than ``maximumAge``, because the server drops a token by itself (the device revoked, a sign-out
/// with the device's key, APNs calling the token unregistered) without the app learning of it.
///
/// Apple asks apps to register for remote notifications at every launch and to send the token they get each time,
/// since it can change; this policy keeps that from being a request to the server at every launch.
public struct PushTokenRegistrationPolicy: Sendable, Hashable {
    /// What the app last told the server, as the app remembers it. It holds a digest of the token, never the token.
    public struct Record: Sendable, Hashable, Codable {
        /// Lower-case hex of the SHA-256 of the token's bytes.
        public let tokenDigest: String
        /// The token's APNs environment.
        public let environment: PushEnvironment
        /// The app's bundle id the token was registered for.
        public let bundleID: String
        /// The device (its key's RFC 7638 thumbprint) whose vault session registered it.
        public let device: String
        /// When the server confirmed it.
        public let registeredAt: Date

        /// The record of registering `token` for `bundleID` in `environment` from `device` at `registeredAt`.
        public init(
            token: PushDeviceToken, environment: PushEnvironment, bundleID: String, device: String, registeredAt: Date
        ) {
            self.tokenDigest = Hex.encode(Array(SHA256.hash(data: token.bytes)))
            self.environment = environment
            self.bundleID = bundleID
            self.device = device
            self.registeredAt = registeredAt
        }

        /// Whether this record is for the same registration as `other`, whenever each was made.
        public func isSameRegistration(as other: Record) -> Bool {
            tokenDigest == other.tokenDigest && environment == other.environment && bundleID == other.bundleID
                && device == other.device
        }
    }

    /// What to do.
    public enum Decision: Sendable, Hashable {
        /// Send the token, for this reason.
        case register(Reason)
        /// The server has it already (as far as the app knows): send nothing.
        case unchanged
    }

    /// Why the token is sent.
    public enum Reason: String, Sendable, Hashable {
        /// Nothing was registered before (or the app forgot it, at sign-out).
        case first
        /// The system handed the app another token.
        case tokenChanged = "token_changed"
        /// The build's APNs environment changed (a development build replaced by a distribution build).
        case environmentChanged = "environment_changed"
        /// Another bundle id.
        case bundleChanged = "bundle_changed"
        /// Another device key (a reset device, a new enrollment).
        case deviceChanged = "device_changed"
        /// The last registration is older than ``PushTokenRegistrationPolicy/maximumAge`` (or dated in the future).
        case stale
    }

    /// How long a registration counts as current; a week unless told otherwise.
    public var maximumAge: TimeInterval

    public init(maximumAge: TimeInterval = 7 * 24 * 3600) {
        self.maximumAge = maximumAge
    }

    /// Whether `current` must be sent, given the `last` registration the app remembers, at `now`.
    public func decide(_ current: Record, last: Record?, now: Date) -> Decision {
        guard let last else { return .register(.first) }
        if last.tokenDigest != current.tokenDigest { return .register(.tokenChanged) }
        if last.environment != current.environment { return .register(.environmentChanged) }
        if last.bundleID != current.bundleID { return .register(.bundleChanged) }
        if last.device != current.device { return .register(.deviceChanged) }
        let age = now.timeIntervalSince(last.registeredAt)
        // A registration dated in the future means the clock was wrong once: it is not trusted.
        if age < 0 || age >= maximumAge { return .register(.stale) }
        return .unchanged
    }
}
