// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import NIOConcurrencyHelpers
import VettIDCore
import VettIDCrypto

/// A signed APNs provider token: an ES256 JWT with header `alg`, `kid` and claims `iss` (team id), `iat`.
struct APNSProviderToken: Sendable, Equatable {
    /// The compact JWT, sent as `authorization: bearer <jwt>`. Secret enough: never logged.
    let jwt: String
    /// Its `iat`, Unix seconds.
    let issuedAt: Int64
    /// A serial number, so a refused token is told apart from its successor even within one second.
    let serial: Int

    /// Signs a token for `keyID` and `teamID` issued at `issuedAt`.
    static func sign(
        keyID: String, teamID: String, issuedAt: Int64, key: P256.Signing.PrivateKey, serial: Int
    ) throws -> APNSProviderToken {
        let header = JSONValue.object([("alg", .string(ES256.algorithm)), ("kid", .string(keyID))])
        let claims = JSONValue.object([("iss", .string(teamID)), ("iat", .integer(issuedAt))])
        let input = CompactJWS.signingInput(header: header, payload: claims)
        let signature = try ES256.sign(Array(input.utf8), with: key)
        return APNSProviderToken(jwt: input + "." + Base64URL.encode(signature), issuedAt: issuedAt, serial: serial)
    }
}

/// The provider token in use: signed on first use, replaced when ``APNSProviderTokenPolicy`` says so or after APNs
/// called it expired, and shared by every push (one token per provider, never one per request).
final class APNSProviderTokenCache: Sendable {
    private let keyID: String
    private let teamID: String
    private let key: P256.Signing.PrivateKey
    private let policy: APNSProviderTokenPolicy
    private let clock: any WallClock
    private let onRefresh: @Sendable () -> Void
    private let state = NIOLockedValueBox<(current: APNSProviderToken?, serial: Int)>((nil, 0))

    /// A cache signing with `key` as `keyID` of team `teamID`; `onRefresh` runs for each token signed (a metric).
    init(
        keyID: String, teamID: String, key: P256.Signing.PrivateKey, policy: APNSProviderTokenPolicy,
        clock: any WallClock, onRefresh: @escaping @Sendable () -> Void = {}
    ) {
        self.keyID = keyID
        self.teamID = teamID
        self.key = key
        self.policy = policy
        self.clock = clock
        self.onRefresh = onRefresh
    }

    /// The token to send now, signing a new one when there is none or the current one is due for replacement.
    func current() throws -> APNSProviderToken {
        let now = clock.unixSeconds()
        let (token, signed) = try state.withLockedValue { state -> (APNSProviderToken, Bool) in
            if let current = state.current, !policy.needsNewToken(issuedAt: current.issuedAt, now: now) {
                return (current, false)
            }
            state.serial += 1
            let token = try APNSProviderToken.sign(
                keyID: keyID, teamID: teamID, issuedAt: now, key: key, serial: state.serial)
            state.current = token
            return (token, true)
        }
        if signed { onRefresh() }
        return token
    }

    /// Drops `rejected` after APNs answered 403 `ExpiredProviderToken` to it, unless a newer token replaced it
    /// already; the next ``current()`` signs a new one.
    func invalidate(_ rejected: APNSProviderToken) {
        state.withLockedValue { state in
            if policy.mayReplaceRejected(rejectedSerial: rejected.serial, currentSerial: state.current?.serial) {
                state.current = nil
            }
        }
    }
}

/// Reads the APNs authentication key: the PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`) of a `.p8` file.
enum APNSSigningKey {
    /// The P-256 key in the file at `path`. The error never contains the key.
    static func load(path: String) throws -> P256.Signing.PrivateKey {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw APNSError(.keyUnreadable, "cannot read the APNs key file \(path)")
        }
        guard let key = try? P256.Signing.PrivateKey(pemRepresentation: String(decoding: data, as: UTF8.self)) else {
            throw APNSError(.keyUnreadable, "the APNs key file \(path) is not a PEM P-256 private key (.p8)")
        }
        return key
    }
}
