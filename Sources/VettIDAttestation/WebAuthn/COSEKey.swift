// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

/// A credential public key in COSE form (RFC 9052 §7, RFC 9053): the key types and curves of
/// ``COSEAlgorithm``.
///
/// Parsing checks the structure only: the key type, the curve and the algorithm agree, and the coordinates have
/// their lengths. Whether the point is on the curve is checked where the key is turned into a verifier (the
/// server's `VettIDVerification`).
public enum COSEKey: Sendable, Hashable {
    /// `kty` 2 (EC2), `crv` 1 (P-256), `alg` -7: the coordinates, 32 bytes each.
    case p256(x: [UInt8], y: [UInt8])
    /// `kty` 1 (OKP), `crv` 6 (Ed25519), `alg` -8: the 32-byte public key.
    case ed25519(x: [UInt8])
    /// `kty` 3 (RSA), `alg` -257: the modulus and the public exponent, big-endian without leading zeros.
    case rsa(n: [UInt8], e: [UInt8])

    /// The algorithm this key verifies with.
    public var algorithm: COSEAlgorithm {
        switch self {
        case .p256: .es256
        case .ed25519: .edDSA
        case .rsa: .rs256
        }
    }

    /// Parses a key that spans all of `bytes`.
    /// - Throws: ``WebAuthnError`` `malformed_public_key`.
    public init(bytes: [UInt8]) throws(WebAuthnError) {
        let value: CBORValue
        do { value = try CBORReader.decodeSingle(bytes) } catch {
            throw WebAuthnError(.malformedPublicKey, "the public key is not CBOR: \(error.reason)")
        }
        try self.init(cbor: value)
    }

    /// Reads a key from a decoded CBOR map.
    package init(cbor: CBORValue) throws(WebAuthnError) {
        guard case .map(let entries) = cbor else { throw Self.malformed("the public key is not a CBOR map") }
        func value(_ label: Int) -> CBORValue? {
            entries.first { $0.key == CBORValue(integer: label) }?.value
        }
        func integer(_ label: Int) -> Int? { value(label)?.integerValue }
        func bytes(_ label: Int, count: Int? = nil) throws(WebAuthnError) -> [UInt8] {
            guard let bytes = value(label)?.bytesValue, count.map({ bytes.count == $0 }) ?? !bytes.isEmpty else {
                throw Self.malformed("COSE key parameter \(label) is missing or has the wrong length")
            }
            return bytes
        }
        guard let rawAlgorithm = integer(3), let algorithm = COSEAlgorithm(rawValue: rawAlgorithm) else {
            throw Self.malformed("the COSE algorithm is missing or not ES256, EdDSA or RS256")
        }
        switch (integer(1), algorithm) {
        case (2, .es256):
            guard integer(-1) == 1 else { throw Self.malformed("an ES256 key must be on P-256 (crv 1)") }
            self = .p256(x: try bytes(-2, count: 32), y: try bytes(-3, count: 32))
        case (1, .edDSA):
            guard integer(-1) == 6 else { throw Self.malformed("an EdDSA key must be on Ed25519 (crv 6)") }
            self = .ed25519(x: try bytes(-2, count: 32))
        case (3, .rs256):
            let modulus = try bytes(-1)
            let exponent = try bytes(-2)
            guard modulus.first != 0, exponent.first != 0, exponent.count <= 8 else {
                throw Self.malformed("the RSA modulus or exponent is not minimally encoded")
            }
            self = .rsa(n: modulus, e: exponent)
        default:
            throw Self.malformed("the COSE key type does not match its algorithm")
        }
    }

    /// The canonical CBOR encoding: `kty`, `alg`, then the type's parameters in label order of RFC 9053's
    /// examples (the form authenticators emit).
    public var encoded: [UInt8] { cbor.encoded() }

    package var cbor: CBORValue {
        func entry(_ key: Int, _ value: CBORValue) -> CBORMapEntry {
            CBORMapEntry(key: .init(integer: key), value: value)
        }
        switch self {
        case .p256(let x, let y):
            return .map([
                entry(1, .init(integer: 2)), entry(3, .init(integer: -7)), entry(-1, .init(integer: 1)),
                entry(-2, .bytes(x)), entry(-3, .bytes(y)),
            ])
        case .ed25519(let x):
            return .map([
                entry(1, .init(integer: 1)), entry(3, .init(integer: -8)), entry(-1, .init(integer: 6)),
                entry(-2, .bytes(x)),
            ])
        case .rsa(let n, let e):
            return .map([
                entry(1, .init(integer: 3)), entry(3, .init(integer: -257)), entry(-1, .bytes(n)), entry(-2, .bytes(e)),
            ])
        }
    }

    private static func malformed(_ message: String) -> WebAuthnError { WebAuthnError(.malformedPublicKey, message) }
}

extension CBORValue {
    /// A CBOR integer.
    package init(integer: Int) {
        self = integer >= 0 ? .unsigned(UInt64(integer)) : .negative(UInt64(-1 - integer))
    }

    /// The value as an `Int`, when it is an integer that fits.
    package var integerValue: Int? {
        switch self {
        case .unsigned(let value) where value <= UInt64(Int.max): Int(value)
        case .negative(let value) where value < UInt64(Int.max): -1 - Int(value)
        default: nil
        }
    }
}
