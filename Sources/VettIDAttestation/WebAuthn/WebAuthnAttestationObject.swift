// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

/// The attestation object of a registration (WebAuthn Level 3 §6.5): a CBOR map of the statement format `fmt`,
/// the statement `attStmt` and the authenticator data `authData`.
public struct WebAuthnAttestationObject: Sendable {
    /// The attestation statement format, e.g. `none` or `packed`.
    public let format: String
    /// The attestation statement (a CBOR map; its members depend on ``format``).
    package let statement: CBORValue
    /// The authenticator data, parsed.
    public let authenticatorData: WebAuthnAuthenticatorData

    /// Parses an attestation object.
    /// - Throws: ``WebAuthnError`` `malformed_attestation_object`, or the authenticator data's errors.
    public init(bytes: [UInt8]) throws(WebAuthnError) {
        let value: CBORValue
        do { value = try CBORReader.decodeSingle(bytes) } catch {
            throw WebAuthnError(.malformedAttestationObject, "the attestation object is not CBOR: \(error.reason)")
        }
        guard case .map(let entries) = value, entries.count == 3, let format = value[textKey: "fmt"]?.textValue,
            let statement = value[textKey: "attStmt"], case .map = statement,
            let authData = value[textKey: "authData"]?.bytesValue
        else {
            throw WebAuthnError(
                .malformedAttestationObject, "the attestation object is not a map of fmt, attStmt and authData")
        }
        self.format = format
        self.statement = statement
        self.authenticatorData = try WebAuthnAuthenticatorData(bytes: authData)
    }

    /// Encodes a `none` attestation object (what the SDK's software authenticator and Apple's platform
    /// authenticator send).
    /// - Parameter authenticatorData: The registration's authenticator data.
    public static func encodeNone(authenticatorData: [UInt8]) -> [UInt8] {
        CBORValue.map([
            CBORMapEntry(key: .text("fmt"), value: .text("none")),
            CBORMapEntry(key: .text("attStmt"), value: .map([])),
            CBORMapEntry(key: .text("authData"), value: .bytes(authenticatorData)),
        ]).encoded()
    }
}
