// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import SQLKit
import VettIDCore

/// A device's APNs token (docs/protocol.md 7.6).
struct PushTokenRecord: Sendable, Equatable {
    let userID: UUID
    /// The RFC 7638 thumbprint of the device key whose vault session registered the token.
    let deviceJKT: String
    /// The device token, lower-case hex. Never logged.
    let token: String
    let environment: APNSEnvironment
    /// The app's bundle id: the pushes' `apns-topic`.
    let bundleID: String
    let registeredAtMilliseconds: Int64

    /// When the device registered the token.
    var registeredAt: Date { Date(timeIntervalSince1970: Double(registeredAtMilliseconds) / 1000) }
}

/// The devices' push tokens in the SQL store: one per device, and a token held by one device at most.
struct PushTokenRepository: Sendable {
    /// Stores `record` as its device's token, replacing the device's previous one, and takes the same token from
    /// any other device (the token belongs to the app installation, which now speaks for this device).
    func register(_ record: PushTokenRecord, on db: any SQLDatabase) async throws {
        try await db.raw(
            """
            DELETE FROM push_tokens WHERE token = \(bind: record.token)
              AND NOT (user_id = \(bind: record.userID.key) AND device_jkt = \(bind: record.deviceJKT))
            """
        ).run()
        try await db.raw(
            """
            INSERT INTO push_tokens (user_id, device_jkt, token, environment, bundle_id, registered_at_ms)
            VALUES (\(bind: record.userID.key), \(bind: record.deviceJKT), \(bind: record.token),
                    \(bind: record.environment.rawValue), \(bind: record.bundleID), \(bind: record.registeredAtMilliseconds))
            ON CONFLICT (user_id, device_jkt) DO UPDATE SET token = excluded.token,
                environment = excluded.environment, bundle_id = excluded.bundle_id,
                registered_at_ms = excluded.registered_at_ms
            """
        ).run()
    }

    /// The device's token, if it registered one.
    func find(userID: UUID, deviceJKT: String, on db: any SQLDatabase) async throws -> PushTokenRecord? {
        try await db.raw(
            """
            SELECT user_id, device_jkt, token, environment, bundle_id, registered_at_ms FROM push_tokens
            WHERE user_id = \(bind: userID.key) AND device_jkt = \(bind: deviceJKT)
            """
        ).first().map(Self.decode)
    }

    /// Removes the device's token; whether there was one.
    @discardableResult
    func remove(userID: UUID, deviceJKT: String, on db: any SQLDatabase) async throws -> Bool {
        try await db.raw(
            """
            DELETE FROM push_tokens WHERE user_id = \(bind: userID.key) AND device_jkt = \(bind: deviceJKT)
            RETURNING device_jkt
            """
        ).first() != nil
    }

    /// Removes `token` unless it was registered again after `registeredAtMilliseconds` (a re-registration since
    /// the push APNs refused keeps the newer registration); whether it did.
    @discardableResult
    func removeToken(_ token: String, registeredNoLaterThan registeredAtMilliseconds: Int64, on db: any SQLDatabase)
        async throws -> Bool
    {
        try await db.raw(
            """
            DELETE FROM push_tokens WHERE token = \(bind: token)
              AND registered_at_ms <= \(bind: registeredAtMilliseconds)
            RETURNING device_jkt
            """
        ).first() != nil
    }

    private static func decode(_ row: any SQLRow) throws -> PushTokenRecord {
        guard let userID = UUID(uuidString: try row.decode(column: "user_id", as: String.self)),
            let environment = APNSEnvironment(rawValue: try row.decode(column: "environment", as: String.self))
        else {
            throw StoreCorruption(detail: "push_tokens row")
        }
        return PushTokenRecord(
            userID: userID, deviceJKT: try row.decode(column: "device_jkt", as: String.self),
            token: try row.decode(column: "token", as: String.self), environment: environment,
            bundleID: try row.decode(column: "bundle_id", as: String.self),
            registeredAtMilliseconds: try row.decode(column: "registered_at_ms", as: Int64.self))
    }
}
