// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// Everything the sign-in and registration screen shows (seed 003), computed from a ``SignInStateMachine``.
public struct SignInScreen: Sendable, Hashable {
    /// What the screen's buttons do.
    public enum ActionKind: String, Sendable, Hashable {
        /// Submit the form (``SignInViewModel/submit()``).
        case submit
        /// Switch to registration.
        case switchToRegister
        /// Switch to login.
        case switchToLogin
        /// Sign in with a passkey (``SignInViewModel/signInWithPasskey()``).
        case signInWithPasskey
    }

    /// One field of the form.
    public struct Field: Sendable, Hashable, Identifiable {
        /// What a field holds, for Password AutoFill and the keyboard (`UITextContentType` on iOS).
        public enum ContentKind: String, Sendable, Hashable {
            /// The account name (the email address is the user name).
            case username
            /// An existing password (login).
            case password
            /// A password being created (registration): AutoFill offers a strong one.
            case newPassword
            /// A first name.
            case givenName
            /// A last name.
            case familyName
        }

        /// Which field.
        public let field: SignInField
        /// What it holds.
        public let contentKind: ContentKind
        /// The field's label (also its placeholder and accessibility label).
        public let label: String
        /// Whether the text is hidden (passwords).
        public let isSecure: Bool
        /// What is wrong with the value, shown under the field.
        public let error: String?

        /// The field identifies itself.
        public var id: SignInField { field }
    }

    /// The navigation title.
    public let title: String
    /// The fields in order: email, password, then at registration first and last name.
    public let fields: [Field]
    /// The submit button (disabled while a request runs).
    public let submit: ScreenAction<ActionKind>
    /// The button that switches between login and registration.
    public let switchMode: ScreenAction<ActionKind>
    /// "Sign in with a passkey": at login, when the app can sign in with passkeys; `nil` (no button) at
    /// registration, without a passkey authenticator, or once the device said it cannot do passkeys.
    public let passkey: ScreenAction<ActionKind>?
    /// Why the last attempt failed.
    public let banner: BannerContent<ActionKind>?
    /// Whether a request runs.
    public let showsProgress: Bool
    /// What the progress indicator says (its accessibility label): signing in, or waiting for the passkey.
    public let progressLabel: String

    /// Computes the screen.
    public init(machine: SignInStateMachine) {
        let registering = machine.mode == .register
        let submitting = machine.isBusy
        title = registering ? "Create Account" : "Sign In"
        var fields = [
            Field(
                field: .email, contentKind: .username, label: "Email", isSecure: false,
                error: machine.fieldErrors[.email]),
            Field(
                field: .password, contentKind: registering ? .newPassword : .password, label: "Password",
                isSecure: true, error: machine.fieldErrors[.password]),
        ]
        if registering {
            fields.append(
                Field(
                    field: .firstName, contentKind: .givenName, label: "First name (optional)", isSecure: false,
                    error: machine.fieldErrors[.firstName]))
            fields.append(
                Field(
                    field: .lastName, contentKind: .familyName, label: "Last name (optional)", isSecure: false,
                    error: machine.fieldErrors[.lastName]))
        }
        self.fields = fields
        submit = ScreenAction(
            .submit, title: registering ? "Create Account" : "Sign In",
            isEnabled: !submitting && machine.state != .signedIn)
        switchMode =
            registering
            ? ScreenAction(.switchToLogin, title: "I already have an account", isEnabled: !submitting, role: .secondary)
            : ScreenAction(.switchToRegister, title: "Create an account", isEnabled: !submitting, role: .secondary)
        passkey =
            machine.offersPasskeys && !registering
            ? ScreenAction(
                .signInWithPasskey, title: "Sign in with a passkey",
                isEnabled: !submitting && machine.state != .signedIn,
                role: .secondary)
            : nil
        if case .failed(let failure) = machine.state {
            let retry: ActionKind = machine.lastAttempt == .passkey ? .signInWithPasskey : .submit
            banner = BannerContent(
                tone: .critical, message: failure.message,
                action: failure.retryable ? ScreenAction(retry, title: "Try Again") : nil)
        } else {
            banner = nil
        }
        showsProgress = submitting
        progressLabel = machine.state == .signingInWithPasskey ? "Waiting for the passkey" : "Signing in"
    }
}
