// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Crypto
import Foundation
public import Logging

/// The server's long-lived secrets, generated on first run in `<data-dir>/keys/` and kept with mode 0600.
///
/// - `master.key`: 32 random bytes; the root from which purpose keys are derived with HKDF, and the key that
///   encrypts secrets at rest (credential keys, transaction keys) in later flows.
/// - `access-token.p256`: the P-256 key that signs access tokens (ES256).
///
/// Purpose keys (DPoP nonces, LAT, at-rest encryption) are HKDF derivations of the master key, so one file
/// backs them all and rotating the master key rotates every derived key.
public struct ServerKeys: Sendable {
    /// The master secret. Never logged.
    public let master: SymmetricKey
    /// Signs access tokens.
    public let accessTokenSigningKey: P256.Signing.PrivateKey

    /// Loads the keys from `<dataDirectory>/keys`, generating any that are missing.
    public static func loadOrCreate(dataDirectory: String, logger: Logger) throws -> ServerKeys {
        let directory = dataDirectory + "/keys"
        try SecretFile.ensureDirectory(dataDirectory)
        try SecretFile.ensureDirectory(directory)

        let masterPath = directory + "/master.key"
        let master: SymmetricKey
        if let bytes = try SecretFile.read(masterPath) {
            guard bytes.count == 32 else { throw SecretFile.Failure(path: masterPath, reason: "must hold 32 bytes") }
            master = SymmetricKey(data: bytes)
        } else {
            master = SymmetricKey(size: .bits256)
            try SecretFile.write(master.withUnsafeBytes { Array($0) }, to: masterPath)
            logger.notice("generated server master key", metadata: ["path": "\(masterPath)"])
        }

        let signingPath = directory + "/access-token.p256"
        let signing: P256.Signing.PrivateKey
        if let bytes = try SecretFile.read(signingPath) {
            do {
                signing = try P256.Signing.PrivateKey(rawRepresentation: bytes)
            } catch {
                throw SecretFile.Failure(path: signingPath, reason: "not a P-256 private key")
            }
        } else {
            signing = P256.Signing.PrivateKey()
            try SecretFile.write(Array(signing.rawRepresentation), to: signingPath)
            logger.notice("generated access-token signing key", metadata: ["path": "\(signingPath)"])
        }
        return ServerKeys(master: master, accessTokenSigningKey: signing)
    }

    /// Keys for tests and the in-memory demo: random, never written anywhere.
    public static func ephemeral() -> ServerKeys {
        ServerKeys(master: SymmetricKey(size: .bits256), accessTokenSigningKey: P256.Signing.PrivateKey())
    }

    /// A 256-bit key for one purpose, derived from the master key (HKDF-SHA256, info = "vettid/" + purpose).
    public func derivedKey(purpose: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: master,
            info: Array("vettid/\(purpose)".utf8),
            outputByteCount: 32
        )
    }
}
