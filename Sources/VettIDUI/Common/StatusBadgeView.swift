// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

#if canImport(SwiftUI)
    public import SwiftUI
    public import VettIDViewModels

    /// A status symbol in its tone's colour beside its text.
    public struct StatusBadgeView: View {
        let badge: StatusBadge

        /// Creates the badge.
        public init(_ badge: StatusBadge) {
            self.badge = badge
        }

        public var body: some View {
            Label {
                Text(badge.text)
                    .font(.headline)
            } icon: {
                Image(systemName: badge.symbolName)
                    .foregroundStyle(badge.tone.color)
                    .font(.title)
                    .accessibilityHidden(true)
            }
        }
    }
#endif
