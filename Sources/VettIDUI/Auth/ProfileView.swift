// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

#if canImport(SwiftUI)
    public import SwiftUI
    public import VettIDClient
    import VettIDViewModels

    /// The signed-in member (seed 003's `/auth/me`): name, email, member since, and sign out. It verifies the session
    /// when it appears and on pull to refresh.
    public struct ProfileView: View {
        let auth: AuthManager
        let onSignIn: @MainActor () -> Void

        /// Creates the screen.
        /// - Parameters:
        ///   - auth: The member's session.
        ///   - onSignIn: Opens sign-in (signed out).
        public init(auth: AuthManager, onSignIn: @escaping @MainActor () -> Void) {
            self.auth = auth
            self.onSignIn = onSignIn
        }

        public var body: some View {
            let screen = ProfileScreen(user: auth.currentUser, isLoading: auth.isLoading, error: auth.error)
            List {
                Section {
                    Text(screen.heading)
                        .font(.title2)
                        .accessibilityAddTraits(.isHeader)
                    ForEach(screen.rows) { row in
                        InfoRow(row)
                    }
                }
                if let banner = screen.banner {
                    Section {
                        BannerView(banner, perform: perform)
                    }
                }
                Section {
                    ScreenActionButton(screen.primaryAction, perform: perform)
                }
            }
            .navigationTitle(screen.title)
            .refreshable { [auth] in
                await auth.checkAuthStatus()
            }
            .task { [auth] in
                await auth.checkAuthStatus()
            }
        }

        private func perform(_ kind: ProfileScreen.ActionKind) {
            switch kind {
            case .signOut: Task { await auth.logout() }
            case .signIn: onSignIn()
            case .reload: Task { await auth.checkAuthStatus() }
            }
        }
    }
#endif
