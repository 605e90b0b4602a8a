// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
import VettIDClient
import VettIDCore

@testable import VettIDViewModels

@Suite("Sign-in and profile presentation")
struct SignInScreenTests {
    @Test("login: two fields, Sign In, a way to register")
    func login() {
        let screen = SignInScreen(machine: SignInStateMachine(mode: .login))
        #expect(screen.title == "Sign In")
        #expect(screen.fields.map(\.field) == [.email, .password])
        #expect(screen.fields.map(\.isSecure) == [false, true])
        #expect(screen.fields.map(\.contentKind) == [.username, .password], "AutoFill: the email is the user name")
        #expect(screen.submit == ScreenAction(.submit, title: "Sign In"))
        #expect(screen.switchMode.kind == .switchToRegister)
        #expect(screen.banner == nil)
        #expect(!screen.showsProgress)
    }

    @Test("register: first and last name, Create Account, a way back to login")
    func register() {
        let screen = SignInScreen(machine: SignInStateMachine(mode: .register))
        #expect(screen.title == "Create Account")
        #expect(screen.fields.map(\.field) == [.email, .password, .firstName, .lastName])
        #expect(screen.fields[2].label == "First name (optional)")
        #expect(
            screen.fields.map(\.contentKind) == [.username, .newPassword, .givenName, .familyName],
            "registration asks AutoFill for a new password")
        #expect(screen.submit.title == "Create Account")
        #expect(screen.switchMode.kind == .switchToLogin)
    }

    @Test("field errors show under their fields; submitting disables both buttons")
    func errorsAndSubmitting() {
        var machine = SignInStateMachine(mode: .register)
        _ = machine.submit(
            email: "not an email", password: "short", firstName: String(repeating: "a", count: 101), lastName: "")
        let invalid = SignInScreen(machine: machine)
        #expect(invalid.fields[0].error == "Enter an email address like name@example.com.")
        #expect(invalid.fields[1].error == "Use at least 12 characters.")
        #expect(invalid.fields[2].error == "Use at most 100 characters.")
        #expect(invalid.fields[3].error == nil)

        var sending = SignInStateMachine(mode: .login)
        _ = sending.submit(email: "member@example.com", password: "secret")
        let screen = SignInScreen(machine: sending)
        #expect(screen.showsProgress)
        #expect(!screen.submit.isEnabled)
        #expect(!screen.switchMode.isEnabled)
    }

    @Test("a failure is a banner; a retryable one offers Try Again")
    func failures() {
        var wrong = SignInStateMachine(mode: .login)
        _ = wrong.submit(email: "member@example.com", password: "secret")
        wrong.failed(APIError(code: .invalidCredentials, status: 401, description: "no"))
        let refused = SignInScreen(machine: wrong)
        #expect(refused.banner == BannerContent(tone: .critical, message: "Wrong email or password."))
        #expect(refused.submit.isEnabled)

        var offline = SignInStateMachine(mode: .login)
        _ = offline.submit(email: "member@example.com", password: "secret")
        offline.failed(APIError(code: .networkError, description: "offline"))
        #expect(SignInScreen(machine: offline).banner?.action?.kind == .submit)
    }

    @Test("registration sends trimmed names, nil when empty")
    func namesSent() {
        var machine = SignInStateMachine(mode: .register)
        let action = machine.submit(
            email: " member@example.com ", password: "a long enough password", firstName: "  Ada ", lastName: " ")
        #expect(
            action
                == .send(
                    mode: .register, email: "member@example.com", password: "a long enough password",
                    firstName: "Ada", lastName: nil))
        var login = SignInStateMachine(mode: .login)
        let loginAction = login.submit(email: "member@example.com", password: "secret", firstName: "Ada", lastName: "L")
        #expect(
            loginAction == .send(mode: .login, email: "member@example.com", password: "secret"),
            "names are for registration only")
    }

    @Test("the view model passes the names to register")
    @MainActor
    func viewModelRegisters() async {
        let log = CallLog()
        let model = SignInViewModel(
            mode: .register,
            actions: .init(
                login: { _, _ in },
                register: { email, _, first, last in log.calls.append("\(email) \(first ?? "-") \(last ?? "-")") }))
        model.email = "member@example.com"
        model.password = "a long enough password"
        model.firstName = "Ada"
        model.lastName = "Lovelace"
        #expect(model.screen.fields.count == 4)
        await model.submit()
        #expect(log.calls == ["member@example.com Ada Lovelace"])
        #expect(model.state == .signedIn)
    }

    static let ada = AuthenticatedUser(
        id: "user-1", email: "ada@example.com", firstName: "Ada", lastName: "Lovelace", createdAt: novemberAfternoon)

    @Test("profile: name, email and member since; Sign Out is destructive")
    func profile() {
        let screen = ProfileScreen(user: Self.ada, isLoading: false, error: nil, format: usUTC)
        #expect(screen.title == "Account")
        #expect(screen.heading == "Ada Lovelace")
        #expect(
            screen.rows == [
                InfoRowContent(label: "Name", value: "Ada Lovelace"),
                InfoRowContent(label: "Email", value: "ada@example.com"),
                InfoRowContent(label: "Member Since", value: "Nov 25, 2026"),
            ])
        #expect(screen.primaryAction.kind == .signOut)
        #expect(screen.primaryAction.role == .destructive)
        #expect(screen.primaryAction.isEnabled)
        #expect(screen.banner == nil)
    }

    @Test("profile without a name shows the email; loading disables sign out")
    func profileWithoutName() {
        let user = AuthenticatedUser(id: "u", email: "x@example.com", createdAt: novemberAfternoon)
        let screen = ProfileScreen(user: user, isLoading: true, error: nil, format: usUTC)
        #expect(screen.heading == "x@example.com")
        #expect(screen.rows.map(\.label) == ["Email", "Member Since"])
        #expect(!screen.primaryAction.isEnabled)
        #expect(screen.showsProgress)
    }

    @Test("profile offline keeps the saved details with a notice; other errors say what failed")
    func profileErrors() {
        let offline = ProfileScreen(
            user: Self.ada, isLoading: false, error: APIError(code: .networkError, description: "offline"),
            format: usUTC)
        #expect(offline.banner?.tone == .caution)
        #expect(offline.banner?.action?.kind == .reload)
        #expect(offline.rows.count == 3)
        let failed = ProfileScreen(
            user: Self.ada, isLoading: false,
            error: APIError(code: .internalError, status: 500, description: "boom"), format: usUTC)
        #expect(failed.banner?.tone == .critical)
        #expect(failed.banner?.message == "Your account could not be checked: boom")
    }

    @Test("signed out: Sign In only")
    func signedOut() {
        let screen = ProfileScreen(user: nil, isLoading: false, error: nil, format: usUTC)
        #expect(screen.heading == "Signed Out")
        #expect(screen.rows.isEmpty)
        #expect(screen.primaryAction == ScreenAction(.signIn, title: "Sign In"))
    }
}
