// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Observation
public import VettIDClient
import VettIDCore

/// The sign-in / registration screen: form fields over a ``SignInStateMachine``.
///
/// ```swift
/// let model = SignInViewModel(actions: .live(authManager))
/// model.email = "member@example.com"; model.password = "..."
/// await model.submit()
/// ```
@Observable
@MainActor
public final class SignInViewModel {
    /// What the view model can ask of the SDK; `live(_:)` uses an `AuthManager`, tests pass closures.
    public struct Actions: Sendable {
        /// Logs in.
        public var login: @MainActor @Sendable (_ email: String, _ password: String) async throws -> Void
        /// Registers (and logs in); the names are optional.
        public var register:
            @MainActor @Sendable (_ email: String, _ password: String, _ firstName: String?, _ lastName: String?)
                async throws -> Void

        /// Creates actions from closures.
        public init(
            login: @escaping @MainActor @Sendable (String, String) async throws -> Void,
            register: @escaping @MainActor @Sendable (String, String, String?, String?) async throws -> Void
        ) {
            self.login = login
            self.register = register
        }

        /// Actions performed by an `AuthManager`.
        public static func live(_ auth: AuthManager) -> Actions {
            Actions(
                login: { email, password in try await auth.login(email: email, password: password) },
                register: { email, password, firstName, lastName in
                    try await auth.register(email: email, password: password, firstName: firstName, lastName: lastName)
                }
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
    public init(mode: SignInStateMachine.Mode = .login, actions: Actions) {
        self.machine = SignInStateMachine(mode: mode)
        self.actions = actions
    }

    /// The form's state.
    public var state: SignInStateMachine.State { machine.state }
    /// Problems to show under the fields.
    public var fieldErrors: [SignInField: String] { machine.fieldErrors }
    /// Whether a request is in flight.
    public var isSubmitting: Bool { machine.state == .submitting }

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
}
