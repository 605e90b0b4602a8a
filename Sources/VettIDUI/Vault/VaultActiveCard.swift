// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

#if canImport(SwiftUI)
    public import SwiftUI
    public import VettIDViewModels

    /// The active vault (seed 001's `VaultActiveCard`): the header, the key warning if any, the rows (last sync,
    /// transaction keys, credential version, …) and Sync Now.
    public struct VaultActiveCard: View {
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
                    MessageLine(message, tone: .caution)
                }
                Divider()
                VStack(alignment: .leading, spacing: 8) {
                    ForEach(card.rows) { row in
                        InfoRow(row)
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
