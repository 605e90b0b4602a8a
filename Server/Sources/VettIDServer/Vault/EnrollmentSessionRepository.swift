// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import SQLKit

/// An enrollment session as stored.
struct EnrollmentSession: Sendable, Equatable {
    let id: String
    let userID: UUID
    let invitationCode: String
    /// The RFC 7638 thumbprint of the DPoP key that started the session; every step must be proven by it.
    let deviceJKT: String
    let deviceType: String
    let deviceID: String?
    let state: EnrollmentSessionState
    let attestationRequired: Bool
    /// base64url of the 32-byte attestation challenge.
    let attestationChallenge: String
    let attestationFormat: String?
    let attestedKeyID: String?
    let securityLevel: String?
    /// The key the password is encrypted to first (any unused key of the session is accepted).
    let passwordKeyID: String
    /// Argon2id PHC string, from the password step until finalize seals it into the credential.
    let passwordHash: String?
    let credentialID: String?
    /// The credential package issued at finalize (JSON), so a finalize repeated after a lost response answers
    /// the same package.
    let package: String?
    let createdAt: Int64
    let expiresAt: Int64

    func isExpired(at now: Int64) -> Bool { expiresAt <= now }
}

/// Enrollment sessions in the SQL store. Every state change is a compare-and-set on the current state.
struct EnrollmentSessionRepository: Sendable {
    private static let columns: SQLQueryString = """
        id, user_id, invitation_code, device_jkt, device_type, device_id, state, attestation_required,
        attestation_challenge, attestation_format, attested_key_id, security_level, password_key_id, password_hash,
        credential_id, package, created_at, expires_at
        """

    func insert(_ session: EnrollmentSession, on db: any SQLDatabase) async throws {
        try await db.raw(
            """
            INSERT INTO enrollment_sessions (\(Self.columns), updated_at)
            VALUES (\(bind: session.id), \(bind: session.userID.key), \(bind: session.invitationCode), \(bind: session.deviceJKT),
                    \(bind: session.deviceType), \(bind: session.deviceID), \(bind: session.state.rawValue),
                    \(bind: Int64(session.attestationRequired ? 1 : 0)), \(bind: session.attestationChallenge),
                    \(bind: session.attestationFormat), \(bind: session.attestedKeyID), \(bind: session.securityLevel),
                    \(bind: session.passwordKeyID), \(bind: session.passwordHash), \(bind: session.credentialID),
                    \(bind: session.package), \(bind: session.createdAt), \(bind: session.expiresAt), \(bind: session.createdAt))
            """
        ).run()
    }

    func find(_ id: String, on db: any SQLDatabase) async throws -> EnrollmentSession? {
        try await db.raw("SELECT \(Self.columns) FROM enrollment_sessions WHERE id = \(bind: id)").first().map(
            Self.decode)
    }

    func find(invitationCode: String, on db: any SQLDatabase) async throws -> EnrollmentSession? {
        try await db.raw(
            "SELECT \(Self.columns) FROM enrollment_sessions WHERE invitation_code = \(bind: invitationCode)"
        )
        .first().map(Self.decode)
    }

    /// The member's newest session that is neither completed nor expired.
    func open(userID: UUID, now: Int64, on db: any SQLDatabase) async throws -> EnrollmentSession? {
        try await db.raw(
            """
            SELECT \(Self.columns) FROM enrollment_sessions
            WHERE user_id = \(bind: userID.key) AND state <> 'completed' AND expires_at > \(bind: now)
            ORDER BY created_at DESC LIMIT 1
            """
        ).first().map(Self.decode)
    }

    /// `started → attested`, recording what was attested. False when the state moved meanwhile.
    func markAttested(
        _ id: String, format: String, attestedKeyID: String?, securityLevel: String, now: Int64, on db: any SQLDatabase
    ) async throws -> Bool {
        try await db.raw(
            """
            UPDATE enrollment_sessions
            SET state = 'attested', attestation_format = \(bind: format), attested_key_id = \(bind: attestedKeyID),
                security_level = \(bind: securityLevel), updated_at = \(bind: now)
            WHERE id = \(bind: id) AND state = 'started' AND expires_at > \(bind: now)
            RETURNING id
            """
        ).first() != nil
    }

    /// `from → password_set` with the password's hash. False when the state moved meanwhile.
    func markPasswordSet(
        _ id: String, from: EnrollmentSessionState, passwordHash: String, now: Int64, on db: any SQLDatabase
    ) async throws -> Bool {
        try await db.raw(
            """
            UPDATE enrollment_sessions
            SET state = 'password_set', password_hash = \(bind: passwordHash), updated_at = \(bind: now)
            WHERE id = \(bind: id) AND state = \(bind: from.rawValue) AND expires_at > \(bind: now)
            RETURNING id
            """
        ).first() != nil
    }

    /// `password_set → completed`: the password hash leaves the session (it is now only in the sealed blob)
    /// and the issued package is kept for repeats. False when the state moved meanwhile.
    func markCompleted(_ id: String, credentialID: String, package: String, now: Int64, on db: any SQLDatabase)
        async throws -> Bool
    {
        try await db.raw(
            """
            UPDATE enrollment_sessions
            SET state = 'completed', password_hash = NULL, credential_id = \(bind: credentialID), package = \(bind: package),
                updated_at = \(bind: now)
            WHERE id = \(bind: id) AND state = 'password_set' AND expires_at > \(bind: now)
            RETURNING id
            """
        ).first() != nil
    }

    private static func decode(_ row: any SQLRow) throws -> EnrollmentSession {
        guard let userID = UUID(uuidString: try row.decode(column: "user_id", as: String.self)),
            let state = EnrollmentSessionState(rawValue: try row.decode(column: "state", as: String.self))
        else { throw StoreCorruption(detail: "enrollment_sessions row") }
        return EnrollmentSession(
            id: try row.decode(column: "id", as: String.self), userID: userID,
            invitationCode: try row.decode(column: "invitation_code", as: String.self),
            deviceJKT: try row.decode(column: "device_jkt", as: String.self),
            deviceType: try row.decode(column: "device_type", as: String.self),
            deviceID: try row.decode(column: "device_id", as: String?.self), state: state,
            attestationRequired: try row.decode(column: "attestation_required", as: Int64.self) != 0,
            attestationChallenge: try row.decode(column: "attestation_challenge", as: String.self),
            attestationFormat: try row.decode(column: "attestation_format", as: String?.self),
            attestedKeyID: try row.decode(column: "attested_key_id", as: String?.self),
            securityLevel: try row.decode(column: "security_level", as: String?.self),
            passwordKeyID: try row.decode(column: "password_key_id", as: String.self),
            passwordHash: try row.decode(column: "password_hash", as: String?.self),
            credentialID: try row.decode(column: "credential_id", as: String?.self),
            package: try row.decode(column: "package", as: String?.self),
            createdAt: try row.decode(column: "created_at", as: Int64.self),
            expiresAt: try row.decode(column: "expires_at", as: Int64.self)
        )
    }
}
