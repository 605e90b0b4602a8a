// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

#if canImport(SwiftUI)
    public import SwiftUI
    public import VettIDViewModels

    /// The vault when it is not active (the seed's not-enrolled, pending, enrolled and error cards, and the ended
    /// session): the header, what it means, the details if any, and what can be done.
    public struct VaultStateCard: View {
        let card: VaultStatusScreen.Card
        let perform: @MainActor (VaultStatusScreen.ActionKind) -> Void

        /// Creates the card.
        public init(
            _ card: VaultStatusScreen.Card, perform: @escaping @MainActor (VaultStatusScreen.ActionKind) -> Void
        ) {
            self.card = card
            self.perform = perform
        }

        public var body: some View {
            VStack(alignment: .leading, spacing: 16) {
                StatusBadgeView(card.badge)
                if let message = card.message {
                    Text(message)
                        .foregroundStyle(.secondary)
                        .fixedSize(horizontal: false, vertical: true)
                }
                if !card.rows.isEmpty {
                    Divider()
                    VStack(alignment: .leading, spacing: 8) {
                        ForEach(card.rows) { row in
                            InfoRow(row)
                        }
                    }
                }
                if let action = card.action {
                    ScreenActionButton(action, perform: perform)
                }
            }
            .cardStyle()
        }
    }
#endif
