// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// The App Attest assertion an action request carries when the device enrolled with App Attest.
///
/// ``clientData`` is the UTF-8 JSON `{"action": "authenticate", "credential_id": …, "iat": <unix seconds>,
/// "nonce": <32 random bytes, base64url>}`, sent as base64url in `client_data`. The assertion signs
/// `SHA-256(client_data ‖ jkt_bytes)` (the raw thumbprint of the device's DPoP key), the same binding as every
/// other App Attest object of the SDK; the server checks the action, the credential, `iat` within five minutes and
/// that the counter increases.
public struct VaultActionAssertion: Sendable, Hashable {
    /// The CBOR assertion (sent as standard base64).
    public let assertion: Data
    /// The client data JSON bytes (sent as base64url; the assertion covers them followed by the key thumbprint).
    public let clientData: [UInt8]

    /// Creates an assertion.
    public init(assertion: Data, clientData: [UInt8]) {
        self.assertion = assertion
        self.clientData = clientData
    }
}
