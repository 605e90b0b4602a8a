// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
import VettIDCrypto

/// Which APNs service a device token belongs to: a development-signed app's tokens are sandbox tokens, an App Store,
/// TestFlight or ad hoc build's are production tokens (the `aps-environment` entitlement says which).
public enum PushEnvironment: String, Sendable, Hashable, CaseIterable, Codable {
    case sandbox
    case production

    /// The APNs service of a build signed with this value of the `aps-environment` entitlement: `development` is
    /// the sandbox, `production` production; `nil` for anything else (no push entitlement, a typo).
    ///
    /// An app cannot read its own entitlements at run time through an API, so an app declares the value it is
    /// signed with a second time (the example app: an Info.plist key set per build configuration, next to the
    /// entitlements file of that configuration) and passes it here.
    public init?(apsEnvironment value: String) {
        switch value.trimmingCharacters(in: .whitespaces) {
        case "development": self = .sandbox
        case "production": self = .production
        default: return nil
        }
    }
}

/// What the server recorded for this device's push token (docs/protocol.md 7.6).
public struct PushRegistration: Sendable, Hashable {
    /// The token's APNs service.
    public let environment: PushEnvironment
    /// The app the pushes are for (their `apns-topic`).
    public let bundleID: String
    /// When the server stored the token.
    public let registeredAt: Date

    public init(environment: PushEnvironment, bundleID: String, registeredAt: Date) {
        self.environment = environment
        self.bundleID = bundleID
        self.registeredAt = registeredAt
    }
}

/// An APNs device token as the server takes it: lower-case hex of the bytes the system handed the app.
public struct PushDeviceToken: Sendable, Hashable {
    /// The token's bytes.
    public let bytes: [UInt8]

    /// The token the system passed to `application(_:didRegisterForRemoteNotificationsWithDeviceToken:)`.
    /// - Throws: ``APIError`` `invalid_request` for fewer than 32 or more than 100 bytes.
    public init(_ bytes: some Collection<UInt8>) throws(APIError) {
        guard (32...100).contains(bytes.count) else {
            throw APIError(
                code: .invalidRequest, description: "An APNs device token is 32 to 100 bytes, not \(bytes.count).")
        }
        self.bytes = Array(bytes)
    }

    /// A token written as hex (as `vettid push register --token` takes it), either case.
    /// - Throws: ``APIError`` `invalid_request` for anything but 64 to 200 hex digits.
    public init(hex: String) throws(APIError) {
        guard let bytes = Hex.decode(hex) else {
            throw APIError(
                code: .invalidRequest, description: "An APNs device token is an even number of hex digits.")
        }
        try self.init(bytes)
    }

    /// Lower-case hex, as the server stores it.
    public var hex: String { Hex.encode(bytes) }
}

extension PushDeviceToken: CustomStringConvertible {
    /// The token is not written out (logs must not carry it): only its length.
    public var description: String { "PushDeviceToken(\(bytes.count) bytes)" }
}
