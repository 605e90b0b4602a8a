// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Observation
public import VettIDClient
import VettIDCore

/// The sign-in / registration screen: form fields over a ``SignInStateMachine``.
///
/// ```swift
/// let model = SignInViewModel(actions: .live(authManager, passkeys: authenticator))
/// model.email = "member@example.com"; model.password = "..."
/// await model.submit()            // or: await model.signInWithPasskey()
/// ```
@Observable
@MainActor
public final class SignInViewModel {
    /// What the view model can ask of the SDK; `live(_:passkeys:)` uses an `AuthManager`, tests pass closures.
    public struct Actions: Sendable {
        /// Logs in.
        public var login: @MainActor @Sendable (_ email: String, _ password: String) async throws -> Void
        /// Registers (and logs in); the names are optional.
        public var register:
            @MainActor @Sendable (_ email: String, _ password: String, _ firstName: String?, _ lastName: String?)
                async throws -> Void
        /// Signs in with a passkey (the email, or `nil` for any passkey of the server); `nil` when the app has no
        /// passkey authenticator: the screen then offers no passkey sign-in.
        public var passkeySignIn: (@MainActor @Sendable (_ email: String?) async throws -> Void)?

        /// Creates actions from closures.
        /// - Parameters:
        ///   - login: Logs in with an email and a password.
        ///   - register: Registers with an email, a password and optional first and last names.
        ///   - passkeySignIn: Signs in with a passkey, or `nil` to offer none.
        public init(
            login: @escaping @MainActor @Sendable (String, String) async throws -> Void,
            register: @escaping @MainActor @Sendable (String, String, String?, String?) async throws -> Void,
            passkeySignIn: (@MainActor @Sendable (String?) async throws -> Void)? = nil
        ) {
            self.login = login
            self.register = register
            self.passkeySignIn = passkeySignIn
        }

        /// Actions performed by an `AuthManager`.
        /// - Parameters:
        ///   - auth: The SDK's authentication manager.
        ///   - passkeys: The passkey authenticator to sign in with (`PlatformPasskeyAuthenticator` on Apple
        ///     platforms), or `nil` to offer no passkey sign-in.
        public static func live(_ auth: AuthManager, passkeys: (any PasskeyAuthenticator)? = nil) -> Actions {
            var passkeySignIn: (@MainActor @Sendable (String?) async throws -> Void)?
            if let passkeys {
                passkeySignIn = { email in try await auth.signInWithPasskey(using: passkeys, email: email) }
            }
            return Actions(
                login: { email, password in try await auth.login(email: email, password: password) },
                register: { email, password, firstName, lastName in
                    try await auth.register(email: email, password: password, firstName: firstName, lastName: lastName)
                },
                passkeySignIn: passkeySignIn
            )
        }
    }

    /// The email field.
    public var email = "" {
        didSet { if email != oldValue { machine.edited() } }
    }
    /// The password field.
    public var password = "" {
        didSet { if password != oldValue { machine.edited() } }
    }
    /// The first name field (registration only, optional).
    public var firstName = "" {
        didSet { if firstName != oldValue { machine.edited() } }
    }
    /// The last name field (registration only, optional).
    public var lastName = "" {
        didSet { if lastName != oldValue { machine.edited() } }
    }
    /// The form logic and state.
    public private(set) var machine: SignInStateMachine

    @ObservationIgnored private let actions: Actions

    /// Creates the view model.
    /// - Parameters:
    ///   - mode: Login or registration at first.
    ///   - actions: What the screen asks of the SDK; with ``SignInViewModel/Actions/passkeySignIn`` the login offers passkeys.
    public init(mode: SignInStateMachine.Mode = .login, actions: Actions) {
        self.machine = SignInStateMachine(mode: mode, offersPasskeys: actions.passkeySignIn != nil)
        self.actions = actions
    }

    /// The form's state.
    public var state: SignInStateMachine.State { machine.state }
    /// Problems to show under the fields.
    public var fieldErrors: [SignInField: String] { machine.fieldErrors }
    /// Whether a request is in flight (the form's or a passkey sign-in).
    public var isSubmitting: Bool { machine.isBusy }

    /// The screen's presentation.
    public var screen: SignInScreen {
        SignInScreen(machine: machine)
    }

    /// Switches between login and register.
    public func switchMode(to mode: SignInStateMachine.Mode) {
        machine.switchMode(to: mode)
    }

    /// Validates and submits the form. The password field is cleared after a successful sign-in.
    public func submit() async {
        guard
            case .send(let mode, let email, let password, let firstName, let lastName) = machine.submit(
                email: email, password: self.password, firstName: self.firstName, lastName: self.lastName)
        else {
            return
        }
        do {
            switch mode {
            case .login: try await actions.login(email, password)
            case .register: try await actions.register(email, password, firstName, lastName)
            }
            machine.succeeded()
            self.password = ""
        } catch {
            machine.failed(APIError.from(error))
        }
    }

    /// Signs in with a passkey: the member's passkeys when the email field holds an address, otherwise any of the
    /// server's. A cancelled passkey sheet returns to the form without an error.
    public func signInWithPasskey() async {
        guard case .signInWithPasskey(let email) = machine.startPasskeySignIn(email: self.email),
            let passkeySignIn = actions.passkeySignIn
        else { return }
        do {
            try await passkeySignIn(email)
            machine.succeeded()
            self.password = ""
        } catch {
            machine.passkeySignInFailed(APIError.from(error))
        }
    }
}
