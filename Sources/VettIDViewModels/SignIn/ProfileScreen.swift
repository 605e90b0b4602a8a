// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDClient
import VettIDCore

/// The signed-in member's profile (seed 003's `/auth/me`): who is signed in, since when, and sign out; computed
/// from an `AuthManager`'s `currentUser`, `isLoading` and `error`.
public struct ProfileScreen: Sendable, Hashable {
    /// What the screen's buttons do.
    public enum ActionKind: String, Sendable, Hashable {
        /// Sign out (`AuthManager.logout()`).
        case signOut
        /// Show the sign-in screen.
        case signIn
        /// Verify the session again (`AuthManager.checkAuthStatus()`).
        case reload
    }

    /// The navigation title.
    public let title: String
    /// The member's name, or their email when they gave no name; "Signed Out" without a member.
    public let heading: String
    /// Label/value lines: name, email, member since.
    public let rows: [InfoRowContent]
    /// Sign out (destructive), or sign in when signed out.
    public let primaryAction: ScreenAction<ActionKind>
    /// A notice: the details are the saved ones because the server cannot be reached, or what failed.
    public let banner: BannerContent<ActionKind>?
    /// Whether a request runs.
    public let showsProgress: Bool

    /// Computes the screen.
    public init(user: AuthenticatedUser?, isLoading: Bool, error: APIError?, format: PresentationFormat = .current) {
        title = "Account"
        showsProgress = isLoading
        guard let user else {
            heading = "Signed Out"
            rows = []
            primaryAction = ScreenAction(.signIn, title: "Sign In", isEnabled: !isLoading)
            banner = nil
            return
        }
        let name = [user.firstName, user.lastName].compactMap { $0?.isEmpty == false ? $0 : nil }
            .joined(separator: " ")
        heading = name.isEmpty ? user.email : name
        var rows: [InfoRowContent] = []
        if !name.isEmpty { rows.append(InfoRowContent(label: "Name", value: name)) }
        rows.append(InfoRowContent(label: "Email", value: user.email))
        rows.append(InfoRowContent(label: "Member Since", value: format.date(user.createdAt)))
        self.rows = rows
        primaryAction = ScreenAction(
            .signOut, title: "Sign Out", isEnabled: !isLoading, role: .destructive,
            accessibilityHint: "Ends the session on this device.")
        switch error?.code {
        case nil:
            banner = nil
        case .networkError?:
            banner = BannerContent(
                tone: .caution, message: "Cannot reach the server. These are the details saved on this device.",
                action: ScreenAction(.reload, title: "Try Again", isEnabled: !isLoading, role: .secondary))
        case .some:
            banner = BannerContent(
                tone: .critical, message: "Your account could not be checked: \(error!.description)",
                action: ScreenAction(.reload, title: "Try Again", isEnabled: !isLoading, role: .secondary))
        }
    }
}
