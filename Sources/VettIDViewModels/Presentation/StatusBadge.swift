// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// A status shown as a symbol and a short text (a card's header, a list row's status).
public struct StatusBadge: Sendable, Hashable {
    /// An SF Symbols name.
    public let symbolName: String
    /// What the status means (the view picks the colour).
    public let tone: Tone
    /// The short text beside the symbol.
    public let text: String

    /// Creates a badge.
    public init(symbolName: String, tone: Tone, text: String) {
        self.symbolName = symbolName
        self.tone = tone
        self.text = text
    }
}
