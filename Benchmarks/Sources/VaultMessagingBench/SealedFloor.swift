// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import BenchSupport
import Crypto
import Foundation

/// The least any sealed exchange adds to a plaintext echo, for the throughput floor: the request and the answer
/// padded to a 512-byte bucket and sealed with ChaCha20-Poly1305 under a 28-byte header as additional data, as the
/// session's envelopes are (docs/protocol.md §7.3), with no session, admission or inner-message framing. One key
/// per direction; the header carries a counter unique per key, from which the nonce is taken.
enum SealedFloor {
    static let requestKey = SymmetricKey(size: .bits256)
    static let responseKey = SymmetricKey(size: .bits256)
    static let headerLength = 28

    /// `plain` padded (0x80, zeros) to its 512-byte bucket and sealed under `header`.
    static func seal(_ plain: [UInt8], header: [UInt8], key: SymmetricKey) throws -> [UInt8] {
        var padded = plain
        padded.append(0x80)
        padded.append(contentsOf: repeatElement(0, count: (padded.count + 511) / 512 * 512 - padded.count))
        let box = try ChaChaPoly.seal(
            padded, using: key, nonce: ChaChaPoly.Nonce(data: nonce(header)), authenticating: header)
        var bytes = header
        bytes.append(contentsOf: box.ciphertext)
        bytes.append(contentsOf: box.tag)
        return bytes
    }

    /// The header and the unpadded plaintext of an envelope made by ``seal(_:header:key:)``.
    static func open(_ bytes: [UInt8], key: SymmetricKey) throws -> (header: [UInt8], plain: [UInt8]) {
        guard bytes.count >= headerLength + 16 else { throw BenchFailure("a floor envelope is too short") }
        let header = Array(bytes[..<headerLength])
        let box = try ChaChaPoly.SealedBox(
            nonce: ChaChaPoly.Nonce(data: nonce(header)), ciphertext: bytes[headerLength..<(bytes.count - 16)],
            tag: bytes[(bytes.count - 16)...])
        let padded = Array(try ChaChaPoly.open(box, using: key, authenticating: header))
        guard let marker = padded.lastIndex(where: { $0 != 0 }), padded[marker] == 0x80 else {
            throw BenchFailure("a floor envelope's padding is wrong")
        }
        return (header, Array(padded[..<marker]))
    }

    /// A header whose last eight bytes are `counter`.
    static func header(counter: UInt64) -> [UInt8] {
        [UInt8](repeating: 0, count: headerLength - 8) + withUnsafeBytes(of: counter.bigEndian) { Array($0) }
    }

    private static func nonce(_ header: [UInt8]) -> [UInt8] {
        [0, 0, 0, 0] + header[(headerLength - 8)...]
    }
}
