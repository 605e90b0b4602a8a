// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto

// From the handshake's bytes and the HPKE-exported secret to the two direction keys.

/// The key schedule of docs/protocol.md §7.3:
///
/// ```
/// init_hash = SHA-256(init)                                  (the whole init, signature included)
/// info      = "VettID session v1" || init_hash               (HPKE info of SetupBaseS / SetupBaseR)
/// secret    = HPKE context.Export("VettID session v1 secret", 32)
/// th        = SHA-256(init || response without its signature)
/// prk       = HKDF-Extract(salt = th, ikm = secret)          (SHA-256)
/// k_a2v     = HKDF-Expand(prk, "VettID session v1 app to vault", 32)
/// k_v2a     = HKDF-Expand(prk, "VettID session v1 vault to app", 32)
/// ```
public enum SessionKeySchedule {
    /// `SHA-256(init)`.
    public static func initHash(_ initBytes: [UInt8]) -> [UInt8] { Array(SHA256.hash(data: initBytes)) }

    /// The HPKE `info`: `"VettID session v1" || init_hash`.
    public static func hpkeInfo(initHash: [UInt8]) -> [UInt8] { SessionLabels.hpkeInfo + initHash }

    /// `th = SHA-256(init || response without its signature)`.
    public static func transcriptHash(initBytes: [UInt8], responseSignedBytes: [UInt8]) -> [UInt8] {
        var hash = SHA256()
        hash.update(data: initBytes)
        hash.update(data: responseSignedBytes)
        return Array(hash.finalize())
    }

    /// `"VettID session v1 resp" || th`: the ES256 signing input of the vault signature.
    public static func responseSignatureInput(transcriptHash: [UInt8]) -> [UInt8] {
        SessionLabels.responseSignature + transcriptHash
    }

    /// `prk = HKDF-Extract(salt = th, ikm = secret)`.
    public static func pseudorandomKey(secret: [UInt8], transcriptHash: [UInt8]) -> [UInt8] {
        let prk = HKDF<SHA256>.extract(inputKeyMaterial: SymmetricKey(data: secret), salt: transcriptHash)
        return Array(prk)
    }

    /// `k_a2v` and `k_v2a` expanded from `prk`.
    public static func keys(pseudorandomKey prk: [UInt8]) -> SessionKeys {
        func expand(_ label: [UInt8]) -> [UInt8] {
            let key = HKDF<SHA256>.expand(pseudoRandomKey: prk, info: label, outputByteCount: 32)
            return key.withUnsafeBytes { Array($0) }
        }
        return SessionKeys(
            appToVault: expand(SessionLabels.appToVaultKey), vaultToApp: expand(SessionLabels.vaultToAppKey))
    }

    /// `keys(pseudorandomKey: pseudorandomKey(secret:transcriptHash:))`.
    public static func keys(secret: [UInt8], transcriptHash: [UInt8]) -> SessionKeys {
        keys(pseudorandomKey: pseudorandomKey(secret: secret, transcriptHash: transcriptHash))
    }
}
