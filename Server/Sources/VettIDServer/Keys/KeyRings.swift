// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// The key ring of every ``KeyFamily``: what `<data-dir>/keys/keyring.json` holds (``KeyRingFile``). A family the
/// file does not name has only its original generation.
public struct KeyRings: Sendable, Equatable {
    private var rings: [KeyFamily: KeyRing]

    /// Every family at generation 1 (a server that never rotated).
    public static let original = KeyRings(rings: [:])

    /// The given rings; families not given keep generation 1.
    public init(rings: [KeyFamily: KeyRing]) {
        self.rings = rings
    }

    /// The ring of `family`.
    public subscript(family: KeyFamily) -> KeyRing {
        get { rings[family] ?? .original }
        set { rings[family] = newValue }
    }

    /// Equal when every family has the same ring (a family not given equals one given at generation 1).
    public static func == (lhs: KeyRings, rhs: KeyRings) -> Bool {
        KeyFamily.allCases.allSatisfy { lhs[$0] == rhs[$0] }
    }
}
