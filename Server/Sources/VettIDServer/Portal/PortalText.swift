// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// Text from members and clients made safe for the template engine's escaping.
///
/// swift-mustache escapes `<`, `>`, `&`, `"` and `'` one `Character` at a time, so a quote followed by a combining
/// mark (one extended grapheme cluster, `"` + U+0301) is not recognised and would end an attribute value unescaped.
/// Such a cluster is reduced to its first scalar, which the engine then escapes; nothing else changes.
enum PortalText {
    private static let special: Set<Unicode.Scalar> = ["<", ">", "&", "\"", "'"]

    static func displayable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: special.contains) else { return text }
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for character in text {
            let scalars = character.unicodeScalars
            if scalars.count > 1, let first = scalars.first, special.contains(first) {
                output.unicodeScalars.append(first)
            } else {
                output.append(character)
            }
        }
        return output
    }

    static func displayable(_ text: String?) -> String? { text.map { displayable($0) } }
}
