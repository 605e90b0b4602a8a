// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

#if canImport(SwiftUI)
    public import SwiftUI
    public import VettIDViewModels

    /// The home screen's vault card (seed 001's `VaultStatusCard`): tapping it opens the vault status screen.
    public struct VaultStatusCard: View {
        let content: VaultStatusCardContent
        let onTap: @MainActor () -> Void

        /// Creates the card.
        public init(_ content: VaultStatusCardContent, onTap: @escaping @MainActor () -> Void) {
            self.content = content
            self.onTap = onTap
        }

        public var body: some View {
            Button(action: onTap) {
                HStack {
                    Image(systemName: content.badge.symbolName)
                        .font(.title2)
                        .foregroundStyle(content.badge.tone.color)
                    VStack(alignment: .leading) {
                        Text(content.title)
                            .font(.headline)
                        Text(content.badge.text)
                            .font(.caption)
                            .foregroundStyle(.secondary)
                    }
                    Spacer()
                    Image(systemName: "chevron.right")
                        .foregroundStyle(.secondary)
                }
                .cardStyle()
            }
            .buttonStyle(.plain)
            .accessibilityElement(children: .ignore)
            .accessibilityLabel(Text(content.accessibilityLabel))
            .accessibilityHint(Text(content.accessibilityHint))
            .accessibilityAddTraits(.isButton)
        }
    }
#endif
