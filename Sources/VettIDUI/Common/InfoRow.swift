// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

#if canImport(SwiftUI)
    public import SwiftUI
    public import VettIDViewModels

    /// One label/value line of a card (seed 001's `InfoRow`); VoiceOver reads it as one element.
    public struct InfoRow: View {
        let row: InfoRowContent

        /// Creates the row.
        public init(_ row: InfoRowContent) {
            self.row = row
        }

        public var body: some View {
            HStack(alignment: .firstTextBaseline) {
                Text(row.label)
                    .foregroundStyle(.secondary)
                Spacer()
                Text(row.value)
                    .multilineTextAlignment(.trailing)
            }
            .accessibilityElement(children: .ignore)
            .accessibilityLabel(Text(row.accessibilityLabel))
        }
    }
#endif
