// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Bridges a credentials callback to NATSAuth's JWT and nonce-signing callbacks.

import NATSClient
import NIOConcurrencyHelpers
import VettIDCrypto

/// Mints fresh credentials on every (re)connect and signs that connection's nonce with their key: the vault
/// worker's application-account user and the account publisher's system-account user.
///
/// nats-client asks for the JWT, then for the nonce signature, in the same handshake; the key of the latest
/// JWT is kept between the two calls. The seed is never logged.
final class NATSCredentialSigner: Sendable {
    private let mint: @Sendable () throws -> (jwt: String, seed: String)
    private let current = NIOLockedValueBox<NKeyPair?>(nil)

    init(_ mint: @escaping @Sendable () throws -> (jwt: String, seed: String)) {
        self.mint = mint
    }

    /// Authentication that calls ``jwt()`` and ``sign(_:)`` on every connect.
    var auth: NATSAuth {
        .jwt({ try self.jwt() }, sign: { try self.sign($0) })
    }

    /// Mints credentials and keeps their key for ``sign(_:)``.
    func jwt() throws -> String {
        let credentials = try mint()
        let pair = try NKeyPair(seed: credentials.seed)
        current.withLockedValue { $0 = pair }
        return credentials.jwt
    }

    /// Signs the server's nonce with the key of the JWT minted last.
    func sign(_ nonce: [UInt8]) throws -> [UInt8] {
        guard let pair = current.withLockedValue({ $0 }) else {
            throw NATSJWTError(.signingFailed, "no credentials were minted for this connection")
        }
        return try pair.sign(nonce)
    }
}
