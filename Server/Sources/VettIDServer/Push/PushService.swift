// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import Logging
import VettIDCore

/// The devices' APNs tokens and the wake pushes sent to them (docs/protocol.md 7.6).
///
/// Devices register a token over their vault session; the mailbox relay calls ``wake(userID:deviceJKT:isPresent:)``
/// after it stored a message for a device, and a device whose app does not answer the presence question gets a
/// content-free push through the ``APNSProvider``. Tokens are never logged (``APNSPushRequest/tokenLogID`` is).
struct PushService: Sendable {
    let configuration: APNSConfiguration
    /// Sends the pushes; `nil` when APNs is off (`apns_key_file` unset): registration then answers 503.
    let provider: APNSProvider?
    let store: any SQLStore
    let clock: any WallClock
    let metrics: ServerMetrics?
    let logger: Logger
    let repository = PushTokenRepository()

    /// Stores `token` as the device's one token (replacing its previous one).
    /// - Throws: 503 `push_not_configured` without APNs; 400 `invalid_request` for a token that is not 64 to 200
    ///   hex digits (an even number) or a bundle id the server does not push to.
    func register(
        userID: UUID, deviceJKT: String, token: String, environment: APNSEnvironment, bundleID: String
    ) async throws -> PushTokenRecord {
        guard provider != nil else {
            throw APIFailure(.serviceUnavailable, .pushNotConfigured, "this server sends no pushes")
        }
        let token = token.lowercased()
        guard APNSDeviceToken.isWellFormed(token) else {
            throw APIFailure.invalidRequest("token must be 64 to 200 hex digits, an even number of them")
        }
        guard configuration.bundleIDs.contains(bundleID) else {
            throw APIFailure.invalidRequest("bundle_id is not an app this server pushes to")
        }
        let record = PushTokenRecord(
            userID: userID, deviceJKT: deviceJKT, token: token, environment: environment, bundleID: bundleID,
            registeredAtMilliseconds: clock.unixMilliseconds())
        let repository = self.repository
        try await store.transaction { db in try await repository.register(record, on: db) }
        logger.info(
            "push token registered",
            metadata: ["token": "\(APNSDeviceToken.logID(token))", "environment": "\(environment.rawValue)"])
        return record
    }

    /// Removes the device's token (none is fine).
    func remove(userID: UUID, deviceJKT: String) async throws {
        let repository = self.repository
        try await store.withDatabase { db in
            _ = try await repository.remove(userID: userID, deviceJKT: deviceJKT, on: db)
        }
    }

    /// Removes the token of a device that was revoked or signed out; a store failure is logged, not thrown (the
    /// revocation or sign-out itself already happened).
    func deviceGone(userID: UUID, deviceJKT: String) async {
        do {
            try await remove(userID: userID, deviceJKT: deviceJKT)
        } catch {
            logger.warning("a gone device's push token was not removed", metadata: ["error": "\(error)"])
        }
    }

    /// Wakes the device after a message was stored in its mailbox: nothing when it has no token or its app is
    /// connected (`isPresent` answers `true`), else a push is queued (coalesced with one already waiting).
    func wake(userID: UUID, deviceJKT: String, isPresent: () async -> Bool) async {
        guard let provider else { return }
        let repository = self.repository
        let record: PushTokenRecord?
        do {
            record = try await store.withDatabase { db in
                try await repository.find(userID: userID, deviceJKT: deviceJKT, on: db)
            }
        } catch {
            logger.warning("push token lookup failed; no wake push", metadata: ["error": "\(error)"])
            return
        }
        guard let record else {
            metrics?.apnsWake(outcome: "no_token")
            return
        }
        if await isPresent() {
            metrics?.apnsWake(outcome: "present")
            return
        }
        metrics?.apnsWake(outcome: "pushed")
        provider.enqueue(
            APNSPushRequest(
                deviceToken: record.token, environment: record.environment, topic: record.bundleID,
                registeredAt: record.registeredAt))
    }
}

/// Removes the tokens APNs calls bad (`BadDeviceToken`, `DeviceTokenNotForTopic`, `Unregistered` after the
/// registration), unless the device registered again since the push.
struct PushTokenDropper: APNSPushOutcomeHandler {
    let store: any SQLStore
    let logger: Logger

    func pushFinished(_ outcome: APNSPushOutcome) async {
        guard outcome.disposition == .dropToken else { return }
        let request = outcome.request
        let registered = SecurityEventRepository.milliseconds(request.registeredAt)
        do {
            let removed = try await store.withDatabase { db in
                try await PushTokenRepository().removeToken(
                    request.deviceToken, registeredNoLaterThan: registered, on: db)
            }
            logger.info(
                "push token dropped on APNs' word",
                metadata: [
                    "token": "\(request.tokenLogID)", "reason": "\(outcome.reason ?? "")", "removed": "\(removed)",
                ])
        } catch {
            logger.warning("a refused push token was not removed", metadata: ["error": "\(error)"])
        }
    }
}
