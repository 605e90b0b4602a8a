// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

// The context a transaction-key envelope is bound to, and its exact HPKE info bytes.

/// What an encrypted payload is bound to: its purpose, the enrollment session or action it belongs to,
/// and the transaction key it is encrypted to.
///
/// ## Info layout
/// ``info()`` is four length-prefixed UTF-8 fields, each `u16be(byte length) ‖ bytes`:
///
/// ```
/// info = u16be(16) ‖ "vettid-tx-key/v1"
///      ‖ u16be(len(purpose))    ‖ purpose      (for example "enrollment-password")
///      ‖ u16be(len(contextID))  ‖ contextID    (the enrollment session id or the action id)
///      ‖ u16be(len(keyID))      ‖ keyID        (the transaction key id)
/// ```
///
/// The length prefixes make the encoding injective: no two contexts give the same bytes.
public struct TransactionKeyContext: Sendable, Hashable {
    /// The version label that starts every `info`.
    public static let label = "vettid-tx-key/v1"

    /// What the payload is for.
    public let purpose: TransactionKeyPurpose
    /// The enrollment session id or action id the payload belongs to.
    public let contextID: String
    /// The transaction key id the payload is encrypted to.
    public let keyID: String

    /// Creates a context.
    public init(purpose: TransactionKeyPurpose, contextID: String, keyID: String) {
        self.purpose = purpose
        self.contextID = contextID
        self.keyID = keyID
    }

    /// The exact HPKE `info` bytes (see the layout above).
    /// - Throws: `TransactionKeyEnvelopeError.Code.invalidContext` when a field is empty or too long.
    public func info() throws(TransactionKeyEnvelopeError) -> [UInt8] {
        var output = [UInt8]()
        for field in [Self.label, purpose.rawValue, contextID, keyID] {
            let bytes = Array(field.utf8)
            guard !bytes.isEmpty, bytes.count <= Int(UInt16.max) else {
                throw TransactionKeyEnvelopeError(.invalidContext, "context fields must be 1...65535 bytes")
            }
            output.append(UInt8(bytes.count >> 8))
            output.append(UInt8(bytes.count & 0xFF))
            output.append(contentsOf: bytes)
        }
        return output
    }
}
