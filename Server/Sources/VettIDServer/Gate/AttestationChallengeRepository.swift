// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import SQLKit
import VettIDCrypto

/// Attestation challenges in the SQL store: issued with a purpose and an expiry, consumed exactly once.
///
/// Only SHA-256 of a challenge is stored. Consumption is one `UPDATE … WHERE used_at IS NULL AND
/// expires_at > now RETURNING`, so of two requests racing with the same challenge, on any instances, one wins.
struct AttestationChallengeRepository: Sendable {
    /// Why a challenge could not be consumed (or that it was).
    enum Consumption: Equatable, Sendable {
        case consumed
        case unknown
        case used
        case expired
        case wrongPurpose
    }

    let store: any SQLStore

    static func hash(_ challenge: [UInt8]) -> String { Hex.encode(SHA256.hash(data: challenge)) }

    /// Stores a new challenge; purges challenges expired for more than an hour.
    func insert(_ challenge: [UInt8], purpose: String, now: Int64, expiresAt: Int64) async throws {
        let hash = Self.hash(challenge)
        try await store.withDatabase { db in
            try await db.raw("DELETE FROM attestation_challenges WHERE expires_at < \(bind: now - 3_600)").run()
            try await db.raw(
                """
                INSERT INTO attestation_challenges (challenge_hash, purpose, created_at, expires_at)
                VALUES (\(bind: hash), \(bind: purpose), \(bind: now), \(bind: expiresAt))
                """
            ).run()
        }
    }

    /// Consumes the challenge for `purpose` atomically; when it cannot, says why.
    func consume(_ challenge: [UInt8], purpose: String, now: Int64) async throws -> Consumption {
        let hash = Self.hash(challenge)
        return try await store.withDatabase { db in
            let consumed = try await db.raw(
                """
                UPDATE attestation_challenges SET used_at = \(bind: now)
                WHERE challenge_hash = \(bind: hash) AND purpose = \(bind: purpose)
                AND used_at IS NULL AND expires_at > \(bind: now)
                RETURNING challenge_hash
                """
            ).first()
            if consumed != nil { return .consumed }
            guard
                let row = try await db.raw(
                    "SELECT purpose, used_at, expires_at FROM attestation_challenges WHERE challenge_hash = \(bind: hash)"
                ).first()
            else { return .unknown }
            if try row.decode(column: "used_at", as: Int64?.self) != nil { return .used }
            if try row.decode(column: "expires_at", as: Int64.self) <= now { return .expired }
            return .wrongPurpose
        }
    }
}
