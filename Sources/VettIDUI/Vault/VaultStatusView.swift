// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

#if canImport(SwiftUI)
    public import SwiftUI
    public import VettIDViewModels

    /// The vault status screen (seed 001's `VaultStatusView`): a card for each of the five states and errors, pull to
    /// refresh, sync. It reads the status when it appears.
    public struct VaultStatusView: View {
        let model: VaultStatusViewModel
        let onEnroll: @MainActor () -> Void
        let onSignIn: @MainActor () -> Void

        /// Creates the screen.
        /// - Parameters:
        ///   - model: The view model.
        ///   - onEnroll: Opens enrollment (the vault is not set up).
        ///   - onSignIn: Opens sign-in (the session has ended).
        public init(
            model: VaultStatusViewModel, onEnroll: @escaping @MainActor () -> Void,
            onSignIn: @escaping @MainActor () -> Void
        ) {
            self.model = model
            self.onEnroll = onEnroll
            self.onSignIn = onSignIn
        }

        public var body: some View {
            let screen = model.screen()
            ScrollView {
                VStack(spacing: 24) {
                    switch model.state {
                    case .loading:
                        ProgressView()
                            .accessibilityLabel(Text(screen.progressLabel))
                    case .active:
                        if let card = screen.card {
                            VaultActiveCard(card, perform: perform)
                        }
                    case .notEnrolled, .pending, .enrolled, .error, .signInRequired:
                        if let card = screen.card {
                            VaultStateCard(card, perform: perform)
                        }
                    }
                }
                .padding()
            }
            .navigationTitle(screen.title)
            .refreshable {
                if screen.allowsRefresh { await model.refresh() }
            }
            .task {
                await model.refresh()
            }
        }

        private func perform(_ kind: VaultStatusScreen.ActionKind) {
            switch kind {
            case .enroll: onEnroll()
            case .signIn: onSignIn()
            case .sync: Task { await model.sync() }
            case .retry: Task { await model.retry() }
            case .refresh: Task { await model.refresh() }
            }
        }
    }
#endif
