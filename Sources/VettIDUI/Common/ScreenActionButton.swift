// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

#if canImport(SwiftUI)
    public import SwiftUI
    public import VettIDViewModels

    /// A ``ScreenAction`` as a full-width button: prominent when primary, bordered otherwise, in the destructive
    /// style when it ends something; disabled when the action is; its hint for VoiceOver.
    public struct ScreenActionButton<Kind: Sendable & Hashable>: View {
        let action: ScreenAction<Kind>
        let perform: @MainActor (Kind) -> Void

        /// Creates the button; `perform` receives the action's kind.
        public init(_ action: ScreenAction<Kind>, perform: @escaping @MainActor (Kind) -> Void) {
            self.action = action
            self.perform = perform
        }

        public var body: some View {
            let button = Button(role: action.role == .destructive ? .destructive : nil) {
                perform(action.kind)
            } label: {
                Text(action.title)
                    .frame(maxWidth: .infinity)
            }
            .disabled(!action.isEnabled)
            .accessibilityHint(Text(action.accessibilityHint ?? ""))

            switch action.role {
            case .primary:
                button.buttonStyle(.borderedProminent)
            case .secondary, .destructive:
                button.buttonStyle(.bordered)
            }
        }
    }
#endif
