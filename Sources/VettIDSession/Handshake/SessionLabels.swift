// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The ASCII labels of protocol version 1: each signature, HPKE input and HKDF output has its own, so a value made
// for one purpose can never be taken for another.

/// The domain-separation labels of the session protocol, version 1 (ASCII, no terminator).
public enum SessionLabels {
    /// Prefixed to the init without its signature before the device signs it.
    public static let initSignature = Array("VettID session v1 init".utf8)
    /// Prefixed to the transcript hash `th` before the vault signs it.
    public static let responseSignature = Array("VettID session v1 resp".utf8)
    /// The HPKE `info` is this label followed by `init_hash`.
    public static let hpkeInfo = Array("VettID session v1".utf8)
    /// The HPKE exporter context of the session secret.
    public static let exportedSecret = Array("VettID session v1 secret".utf8)
    /// The HKDF-Expand info of the app-to-vault key.
    public static let appToVaultKey = Array("VettID session v1 app to vault".utf8)
    /// The HKDF-Expand info of the vault-to-app key.
    public static let vaultToAppKey = Array("VettID session v1 vault to app".utf8)
}
