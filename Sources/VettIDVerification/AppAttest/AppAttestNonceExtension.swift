// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The App Attest nonce certificate extension, 1.2.840.113635.100.8.2.

package import SwiftASN1

/// Reads and writes the nonce extension: `SEQUENCE { [1] EXPLICIT OCTET STRING nonce }`.
package enum AppAttestNonceExtension {
    package static let oid: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 8, 2]

    package static func nonce(fromExtensionValue value: ArraySlice<UInt8>) throws -> [UInt8] {
        let root = try DER.parse(value)
        return try DER.sequence(root, identifier: .sequence) { nodes in
            try DER.explicitlyTagged(&nodes, tagNumber: 1, tagClass: .contextSpecific) { node in
                Array(try ASN1OctetString(derEncoded: node).bytes)
            }
        }
    }

    package static func extensionValue(nonce: [UInt8]) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.appendConstructedNode(identifier: .sequence) { sequence in
            try sequence.serialize(explicitlyTaggedWithTagNumber: 1, tagClass: .contextSpecific) { tagged in
                try tagged.serialize(ASN1OctetString(contentBytes: ArraySlice(nonce)))
            }
        }
        return serializer.serializedBytes
    }
}
