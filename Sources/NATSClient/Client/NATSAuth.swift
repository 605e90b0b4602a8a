// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// How the client proves its identity in CONNECT. The nonce from INFO is signed as its ASCII bytes and the
// signature sent as unpadded base64url (nats.go connectProto; nats-server auth.go).

import VettIDCrypto

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Credentials for CONNECT: none, a token, a user and password, an NKey, a user JWT with its NKey seed,
/// signing callbacks, or a creds file.
///
/// Values are never logged; ``description`` names only the kind.
public struct NATSAuth: Sendable, CustomStringConvertible {
    enum Kind: Sendable {
        case none
        case token(String)
        case userPassword(user: String, password: String)
        case nkeySeed(String)
        case nkeySigner(publicKey: String, sign: @Sendable ([UInt8]) throws -> [UInt8])
        case jwt(jwt: String, seed: String)
        case jwtSigner(jwt: @Sendable () throws -> String, sign: @Sendable ([UInt8]) throws -> [UInt8])
        case credentialsFile(path: String)
    }

    let kind: Kind

    /// No credentials (credentials in the server URL still apply).
    public static let none = NATSAuth(kind: .none)

    /// A token (`auth_token`).
    public static func token(_ token: String) -> NATSAuth { NATSAuth(kind: .token(token)) }

    /// A user name and password.
    public static func userPassword(user: String, password: String) -> NATSAuth {
        NATSAuth(kind: .userPassword(user: user, password: password))
    }

    /// An NKey seed (`SU…`): the public key goes in `nkey`, the nonce is signed with the seed.
    public static func nkeySeed(_ seed: String) -> NATSAuth { NATSAuth(kind: .nkeySeed(seed)) }

    /// An NKey public key and a callback that signs the nonce (for keys held elsewhere).
    public static func nkey(publicKey: String, sign: @escaping @Sendable ([UInt8]) throws -> [UInt8]) -> NATSAuth {
        NATSAuth(kind: .nkeySigner(publicKey: publicKey, sign: sign))
    }

    /// A user JWT and the user's NKey seed, held in memory.
    public static func jwt(_ jwt: String, seed: String) -> NATSAuth { NATSAuth(kind: .jwt(jwt: jwt, seed: seed)) }

    /// Callbacks that return the current user JWT and sign the nonce; called on every (re)connect.
    public static func jwt(
        _ jwt: @escaping @Sendable () throws -> String,
        sign: @escaping @Sendable ([UInt8]) throws -> [UInt8]
    ) -> NATSAuth {
        NATSAuth(kind: .jwtSigner(jwt: jwt, sign: sign))
    }

    /// A `.creds` file, read on every (re)connect so a refreshed file is picked up.
    public static func credentialsFile(path: String) -> NATSAuth { NATSAuth(kind: .credentialsFile(path: path)) }

    /// The kind of credentials, never their values.
    public var description: String {
        switch kind {
        case .none: "none"
        case .token: "token"
        case .userPassword(let user, _): "user \(user)"
        case .nkeySeed: "nkey"
        case .nkeySigner(let publicKey, _): "nkey \(publicKey)"
        case .jwt, .jwtSigner: "jwt"
        case .credentialsFile(let path): "creds \(path)"
        }
    }

    /// Fills the credential fields of `options`, signing `nonce` where needed.
    func apply(to options: inout NATSConnectOptions, nonce: String?) throws(NATSError) {
        func signature(_ sign: () throws -> [UInt8]) throws(NATSError) -> String {
            do {
                return Base64URL.encode(try sign())
            } catch {
                throw NATSError(.authenticationFailed, "signing the nonce failed")
            }
        }
        let nonceBytes = Array((nonce ?? "").utf8)
        switch kind {
        case .none:
            break
        case .token(let token):
            options.authToken = token
        case .userPassword(let user, let password):
            options.user = user
            options.pass = password
        case .nkeySeed(let seed):
            let pair = try Self.keyPair(seed)
            options.nkey = pair.publicKey
            options.signature = try signature { try pair.sign(nonceBytes) }
        case .nkeySigner(let publicKey, let sign):
            options.nkey = publicKey
            options.signature = try signature { try sign(nonceBytes) }
        case .jwt(let jwt, let seed):
            let pair = try Self.keyPair(seed)
            options.jwt = jwt
            options.signature = try signature { try pair.sign(nonceBytes) }
        case .jwtSigner(let jwt, let sign):
            do {
                options.jwt = try jwt()
            } catch {
                throw NATSError(.authenticationFailed, "the JWT callback failed")
            }
            options.signature = try signature { try sign(nonceBytes) }
        case .credentialsFile(let path):
            let creds: NATSCredsFile
            do {
                let data = try Data(contentsOf: URL(fileURLWithPath: path))
                creds = try NATSCredsFile.parse(String(decoding: data, as: UTF8.self))
            } catch {
                throw NATSError(.invalidConfiguration, "cannot read creds file \(path)")
            }
            let pair = try Self.keyPair(creds.seed)
            options.jwt = creds.jwt
            options.signature = try signature { try pair.sign(nonceBytes) }
        }
    }

    private static func keyPair(_ seed: String) throws(NATSError) -> NKeyPair {
        do {
            return try NKeyPair(seed: seed)
        } catch {
            throw NATSError(.authenticationFailed, "invalid NKey seed (\(error.code))")
        }
    }
}
