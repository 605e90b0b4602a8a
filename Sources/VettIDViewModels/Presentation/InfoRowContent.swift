// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// One label/value line of a card (the seeds' `InfoRow`), already formatted.
public struct InfoRowContent: Sendable, Hashable, Identifiable {
    /// The label (left, secondary style).
    public let label: String
    /// The value (right).
    public let value: String

    /// Creates a row.
    public init(label: String, value: String) {
        self.label = label
        self.value = value
    }

    /// The label identifies a row within its card.
    public var id: String { label }
    /// What VoiceOver reads for the row as one element.
    public var accessibilityLabel: String { "\(label): \(value)" }
}
