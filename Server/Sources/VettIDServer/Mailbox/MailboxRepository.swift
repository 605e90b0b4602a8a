// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import SQLKit
import VettIDCore
import VettIDMessaging

/// A device's registered mailbox key (docs/protocol.md 7.5).
struct MailboxDeviceRecord: Sendable, Equatable {
    let userID: UUID
    /// The RFC 7638 thumbprint of the device key.
    let deviceJKT: String
    /// The X25519 public key, unpadded base64url.
    let mailboxKey: String
    let registeredAtMilliseconds: Int64
}

/// A notice waiting in the outbox to be published to every mailbox of its member.
struct MailboxOutboxEntry: Sendable, Equatable {
    let id: String
    let userID: UUID
    let createdAtMilliseconds: Int64
    /// The notice's compact JSON (the plaintext each device's copy is sealed over).
    let notice: String
}

/// Mailbox keys and the notice outbox in the SQL store.
struct MailboxRepository: Sendable {
    /// Registers (or replaces) the device's mailbox key; when the member then has more than `maxDevices`
    /// mailboxes, removes the least recently registered ones and returns them (their consumers go next).
    func register(_ device: MailboxDeviceRecord, maxDevices: Int, on db: any SQLDatabase) async throws
        -> [MailboxDeviceRecord]
    {
        try await db.raw(
            """
            INSERT INTO mailbox_devices (user_id, device_jkt, mailbox_key, registered_at_ms)
            VALUES (\(bind: device.userID.key), \(bind: device.deviceJKT), \(bind: device.mailboxKey),
                    \(bind: device.registeredAtMilliseconds))
            ON CONFLICT (user_id, device_jkt)
            DO UPDATE SET mailbox_key = excluded.mailbox_key, registered_at_ms = excluded.registered_at_ms
            """
        ).run()
        let all = try await devices(userID: device.userID, on: db)
        guard all.count > maxDevices else { return [] }
        let evicted = all.filter { $0.deviceJKT != device.deviceJKT }.prefix(all.count - maxDevices)
        for old in evicted { try await remove(userID: old.userID, deviceJKT: old.deviceJKT, on: db) }
        return Array(evicted)
    }

    /// The member's mailboxes, least recently registered first.
    func devices(userID: UUID, on db: any SQLDatabase) async throws -> [MailboxDeviceRecord] {
        try await db.raw(
            """
            SELECT user_id, device_jkt, mailbox_key, registered_at_ms FROM mailbox_devices
            WHERE user_id = \(bind: userID.key) ORDER BY registered_at_ms, device_jkt
            """
        ).all().map(Self.decodeDevice)
    }

    /// Removes the device's mailbox key; whether there was one.
    @discardableResult
    func remove(userID: UUID, deviceJKT: String, on db: any SQLDatabase) async throws -> Bool {
        try await db.raw(
            """
            DELETE FROM mailbox_devices WHERE user_id = \(bind: userID.key) AND device_jkt = \(bind: deviceJKT)
            RETURNING device_jkt
            """
        ).first() != nil
    }

    /// Puts a notice in the outbox (inside the caller's transaction, with the change it tells of) when the member
    /// has a mailbox; a member without one gets nothing written.
    func enqueue(_ entry: MailboxOutboxEntry, on db: any SQLDatabase) async throws {
        try await db.raw(
            """
            INSERT INTO mailbox_outbox (id, user_id, created_at_ms, notice)
            SELECT \(bind: entry.id), \(bind: entry.userID.key), \(bind: entry.createdAtMilliseconds), \(bind: entry.notice)
            WHERE EXISTS (SELECT 1 FROM mailbox_devices WHERE user_id = \(bind: entry.userID.key))
            """
        ).run()
    }

    /// How many notices wait in the outbox.
    func waitingCount(on db: any SQLDatabase) async throws -> Int {
        try await db.raw("SELECT COUNT(*) AS n FROM mailbox_outbox").first()?.decode(column: "n", as: Int.self) ?? 0
    }

    /// The oldest `limit` notices waiting, oldest first.
    func pending(limit: Int, on db: any SQLDatabase) async throws -> [MailboxOutboxEntry] {
        try await db.raw(
            """
            SELECT id, user_id, created_at_ms, notice FROM mailbox_outbox
            ORDER BY created_at_ms, id LIMIT \(unsafeRaw: String(max(1, limit)))
            """
        ).all().map { row in
            guard let userID = UUID(uuidString: try row.decode(column: "user_id", as: String.self)) else {
                throw StoreCorruption(detail: "mailbox_outbox row")
            }
            return MailboxOutboxEntry(
                id: try row.decode(column: "id", as: String.self), userID: userID,
                createdAtMilliseconds: try row.decode(column: "created_at_ms", as: Int64.self),
                notice: try row.decode(column: "notice", as: String.self))
        }
    }

    /// Removes a delivered notice.
    func delivered(id: String, on db: any SQLDatabase) async throws {
        try await db.raw("DELETE FROM mailbox_outbox WHERE id = \(bind: id)").run()
    }

    private static func decodeDevice(_ row: any SQLRow) throws -> MailboxDeviceRecord {
        guard let userID = UUID(uuidString: try row.decode(column: "user_id", as: String.self)) else {
            throw StoreCorruption(detail: "mailbox_devices row")
        }
        return MailboxDeviceRecord(
            userID: userID, deviceJKT: try row.decode(column: "device_jkt", as: String.self),
            mailboxKey: try row.decode(column: "mailbox_key", as: String.self),
            registeredAtMilliseconds: try row.decode(column: "registered_at_ms", as: Int64.self))
    }
}

extension MailboxOutboxEntry {
    /// The notice of a security event.
    init(_ event: SecurityEvent) throws {
        let milliseconds = SecurityEventRepository.milliseconds(event.occurredAt)
        let notice = MailboxNotice(
            id: MailboxNotice.newID(), kind: .securityEvent, sentAt: milliseconds,
            securityEvent: .init(
                kind: event.kind.rawValue, occurredAt: milliseconds, detail: event.detail, ip: event.origin.ip,
                client: event.origin.client))
        self.init(
            id: notice.id, userID: event.memberID, createdAtMilliseconds: milliseconds,
            notice: String(decoding: try notice.encoded(), as: UTF8.self))
    }
}
