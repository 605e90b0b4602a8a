// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Logging
import NATSClient
import NIOCore
import VettIDCore
import VettIDCrypto
import VettIDMessaging

/// Publishes the outbox's notices to every mailbox of their member, sealed to each device's key, with a
/// `Nats-Msg-Id` per device and a `PubAck` for each (docs/protocol.md 7.5). A notice leaves the outbox only when
/// every mailbox stored it; until then each pass tries it again (a copy stored before a failure is de-duplicated by
/// the stream), oldest first, so one member's notices keep their order. After each pass, every device that got a
/// message is woken (``MailboxService/wake(_:)``: a push when its app is away), once per pass however many it got.
struct MailboxRelay: Sendable {
    let service: MailboxService
    let interval: Duration
    let metrics: ServerMetrics?
    /// Notices read per pass.
    var batch = 64

    /// Passes every `interval` (at once after a full batch; slower after a failure, up to 5 s) until cancelled.
    func run() async {
        var delay = interval
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: delay)
            } catch {
                return
            }
            guard service.isReady else { continue }
            do {
                // A full batch means more may wait: go on at once.
                delay = try await deliverPending() == batch ? .zero : interval
            } catch {
                delay = min(delay * 2, .seconds(5))
                service.logger.warning(
                    "mailbox relay pass failed; retrying", metadata: ["error": "\(error)", "next_in": "\(delay)"])
            }
        }
    }

    /// One pass: delivers what waits, oldest first, and stops at the first notice not stored everywhere.
    /// - Returns: The notices delivered (and those dropped as older than the mailbox's `max_age`).
    func deliverPending() async throws -> Int {
        let repository = service.repository
        let entries = try await service.store.withDatabase { db in try await repository.pending(limit: batch, on: db) }
        let oldest =
            service.clock.unixMilliseconds() - Int64(service.configuration.mailboxMaxAge.components.seconds) * 1000
        var done = 0
        var devicesByMember: [UUID: [MailboxDeviceRecord]] = [:]
        var stored: [MailboxDeviceRecord] = []
        defer {
            // Also after a failed pass: what was stored is in the mailboxes now.
            if !stored.isEmpty { wakeLater(stored) }
        }
        for entry in entries {
            if entry.createdAtMilliseconds >= oldest {
                let devices: [MailboxDeviceRecord]
                if let known = devicesByMember[entry.userID] {
                    devices = known
                } else {
                    devices = try await service.store.withDatabase { db in
                        try await repository.devices(userID: entry.userID, on: db)
                    }
                    devicesByMember[entry.userID] = devices
                }
                for device in devices where try await publish(entry, to: device) {
                    if !stored.contains(device) { stored.append(device) }
                }
            } else {
                metrics?.mailboxMessage(outcome: "expired")
            }
            try await service.store.withDatabase { db in try await repository.delivered(id: entry.id, on: db) }
            done += 1
        }
        return done
    }

    /// Wakes `devices` on a task of their own, so a slow presence answer never holds the next pass back.
    private func wakeLater(_ devices: [MailboxDeviceRecord]) {
        guard service.push != nil else { return }
        let service = self.service
        Task {
            await withDiscardingTaskGroup { group in
                for device in devices { group.addTask { await service.wake(device) } }
            }
        }
    }

    /// Seals `entry` to `device`'s key and publishes it until the stream acknowledges it.
    /// - Returns: Whether the copy was stored (`false`: the device's key does not seal, the copy is skipped).
    @discardableResult
    func publish(_ entry: MailboxOutboxEntry, to device: MailboxDeviceRecord) async throws -> Bool {
        let address = try MailboxAddress(
            namespace: try VaultNamespace(userGUID: entry.userID.key), deviceJKT: device.deviceJKT)
        let messageID = address.messageID(noticeID: entry.id)
        let body: [UInt8]
        do {
            // A key the server refuses at registration cannot be stored; one that still fails is skipped (logged)
            // rather than holding every later notice back.
            let key = try MailboxSeal.publicKey(Base64URL.decode(device.mailboxKey) ?? [])
            body = try MailboxSeal.seal(
                Array(entry.notice.utf8), to: key, subject: address.subject, messageID: messageID)
        } catch {
            metrics?.mailboxMessage(outcome: "unsealable")
            service.logger.error(
                "a device's mailbox key does not seal; its copy is skipped", metadata: ["error": "\(error)"])
            return false
        }
        do {
            try await service.jetStream.publish(
                ByteBuffer(bytes: body), to: address.subject, messageID: messageID, expectedStream: address.stream)
            metrics?.mailboxMessage(outcome: "ok")
            return true
        } catch {
            metrics?.mailboxMessage(outcome: "failed")
            throw error
        }
    }
}
