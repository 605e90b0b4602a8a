// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The bounds of what a member keeps in the vault, checked by the vault and, before sending, by the app.

public import VettIDCore

/// The bounds of a member's secrets and profile (docs/protocol.md §7.4). The vault enforces its own; the app checks
/// the same ones before it sends, so a bad name is refused without a round trip.
public struct VaultDataLimits: VaultCodablePayload, Hashable {
    /// The longest secret name, in UTF-8 bytes.
    public let maxNameBytes: Int
    /// The largest secret value, in bytes.
    public let maxValueBytes: Int
    /// The most secrets a member keeps.
    public let maxSecrets: Int
    /// The most bytes of secret values a member keeps, all secrets together.
    public let maxTotalBytes: Int
    /// The most profile fields.
    public let maxProfileFields: Int
    /// The longest profile value, in UTF-8 bytes.
    public let maxProfileValueBytes: Int

    /// The defaults: names of 128 bytes, values of 16 KiB, 256 secrets, 1 MiB in all, 32 profile fields of 1 KiB.
    public static let standard = VaultDataLimits(
        maxNameBytes: 128, maxValueBytes: 16 * 1024, maxSecrets: 256, maxTotalBytes: 1024 * 1024,
        maxProfileFields: 32, maxProfileValueBytes: 1024)

    /// The longest profile field name, in bytes (fixed: field names are identifiers).
    public static let maxProfileFieldNameBytes = 64

    public init(
        maxNameBytes: Int, maxValueBytes: Int, maxSecrets: Int, maxTotalBytes: Int, maxProfileFields: Int,
        maxProfileValueBytes: Int
    ) {
        self.maxNameBytes = maxNameBytes
        self.maxValueBytes = maxValueBytes
        self.maxSecrets = maxSecrets
        self.maxTotalBytes = maxTotalBytes
        self.maxProfileFields = maxProfileFields
        self.maxProfileValueBytes = maxProfileValueBytes
    }

    /// Checks a secret name: 1 to ``maxNameBytes`` bytes of UTF-8 with no control characters and no leading or
    /// trailing white space.
    /// - Throws: `invalid_secret_name`.
    public func checkSecretName(_ name: String) throws(VaultMessageError) {
        let bytes = name.utf8.count
        guard (1...maxNameBytes).contains(bytes) else {
            throw VaultMessageError(.invalidSecretName, "a secret name is 1 to \(maxNameBytes) bytes")
        }
        guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }),
            name.first?.isWhitespace == false, name.last?.isWhitespace == false
        else {
            throw VaultMessageError(
                .invalidSecretName, "a secret name has no control characters and no white space at either end")
        }
    }

    /// Checks a secret value's size.
    /// - Throws: `secret_too_large`.
    public func checkSecretValue(byteCount: Int) throws(VaultMessageError) {
        guard byteCount <= maxValueBytes else {
            throw VaultMessageError(.secretTooLarge, "a secret value is at most \(maxValueBytes) bytes")
        }
    }

    /// Checks a profile field: a name of 1 to 64 characters `a`–`z`, `0`–`9`, `_`, `.`, `-` starting with a letter,
    /// and a value of at most ``maxProfileValueBytes`` bytes.
    /// - Throws: `invalid_profile`.
    public func checkProfileField(name: String, value: String?) throws(VaultMessageError) {
        let allowed = name.utf8.allSatisfy {
            (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5F || $0 == 0x2E || $0 == 0x2D
        }
        guard (1...Self.maxProfileFieldNameBytes).contains(name.utf8.count), allowed,
            let first = name.utf8.first, (0x61...0x7A).contains(first)
        else {
            throw VaultMessageError(
                .invalidProfile,
                "a profile field name is 1 to 64 characters a-z, 0-9, '_', '.', '-', starting with a letter")
        }
        if let value, value.utf8.count > maxProfileValueBytes {
            throw VaultMessageError(.invalidProfile, "a profile value is at most \(maxProfileValueBytes) bytes")
        }
    }

    enum CodingKeys: String, CodingKey {
        case maxNameBytes = "max_name_bytes"
        case maxValueBytes = "max_value_bytes"
        case maxSecrets = "max_secrets"
        case maxTotalBytes = "max_total_bytes"
        case maxProfileFields = "max_profile_fields"
        case maxProfileValueBytes = "max_profile_value_bytes"
    }
}
