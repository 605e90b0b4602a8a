// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

#if canImport(SwiftUI)
    public import SwiftUI
    public import VettIDViewModels

    /// A message marked by its tone's symbol and colour (the text keeps the primary colour, for contrast) with the
    /// action that can help.
    public struct BannerView<Kind: Sendable & Hashable>: View {
        let banner: BannerContent<Kind>
        let perform: @MainActor (Kind) -> Void

        /// Creates the banner; `perform` receives the action's kind.
        public init(_ banner: BannerContent<Kind>, perform: @escaping @MainActor (Kind) -> Void) {
            self.banner = banner
            self.perform = perform
        }

        public var body: some View {
            VStack(alignment: .leading, spacing: 12) {
                Label {
                    Text(banner.message)
                        .fixedSize(horizontal: false, vertical: true)
                } icon: {
                    Image(systemName: banner.tone.symbolName)
                        .foregroundStyle(banner.tone.color)
                        .accessibilityHidden(true)
                }
                if let action = banner.action {
                    ScreenActionButton(action, perform: perform)
                }
            }
            .cardStyle()
            .accessibilityElement(children: .contain)
        }
    }
#endif
