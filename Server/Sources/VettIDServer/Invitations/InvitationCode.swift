// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// An invitation code: `XXXX-XXXX` over `ABCDEFGHJKMNPQRSTUVWXYZ23456789` (no 0/O, 1/I/L: easy to read aloud
/// and type). 31^8 ≈ 8.5 × 10^11 codes (39.6 bits); redemption is rate limited and codes expire.
public struct InvitationCode: Sendable, Hashable, CustomStringConvertible {
    /// The 31 characters codes are made of.
    public static let alphabet = Array("ABCDEFGHJKMNPQRSTUVWXYZ23456789")

    /// The code in canonical form, e.g. `K7QW-M3RT`.
    public let value: String
    public var description: String { value }

    /// A new uniformly random code (rejection sampling: no modulo bias).
    public static func random() -> InvitationCode {
        var generator = SystemRandomNumberGenerator()
        var characters: [Character] = []
        while characters.count < 8 {
            let byte = UInt8.random(in: 0...255, using: &generator)
            // 248 = 8 × 31: bytes at or above it would favour the first characters.
            if byte < 248 { characters.append(alphabet[Int(byte % 31)]) }
        }
        return InvitationCode(unchecked: String(characters[0..<4]) + "-" + String(characters[4..<8]))
    }

    private init(unchecked value: String) { self.value = value }

    /// Parses a code typed by a person: case-insensitive, surrounding white space and a missing dash tolerated.
    /// Returns `nil` for anything that cannot be a code.
    public init?(parsing text: String) {
        let compact = text.uppercased().filter { !$0.isWhitespace && $0 != "-" }
        guard compact.count == 8, compact.allSatisfy(Self.alphabet.contains) else { return nil }
        self.value = String(compact.prefix(4)) + "-" + String(compact.suffix(4))
    }
}
