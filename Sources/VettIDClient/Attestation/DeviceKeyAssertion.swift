// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// What an attester hands the server to prove, for one fresh challenge, that the registered key is still in the
/// genuine app: an App Attest assertion, or a development token.
public struct DeviceKeyAssertion: Sendable {
    /// How the server must verify it.
    public var format: DeviceAttestationFormat
    /// The registered key's id, standard base64 (`nil` for development).
    public var keyID: String?
    /// The CBOR assertion `{signature, authenticatorData}` (`nil` for development).
    public var assertion: Data?
    /// The development token (only for ``DeviceAttestationFormat/development``).
    public var developmentToken: String?

    /// Creates an assertion.
    public init(
        format: DeviceAttestationFormat, keyID: String? = nil, assertion: Data? = nil, developmentToken: String? = nil
    ) {
        self.format = format
        self.keyID = keyID
        self.assertion = assertion
        self.developmentToken = developmentToken
    }
}
