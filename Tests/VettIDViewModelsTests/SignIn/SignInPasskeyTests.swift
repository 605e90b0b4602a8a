// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Testing
import VettIDClient
import VettIDCore

@testable import VettIDViewModels

/// The error `AuthManager.signInWithPasskey(using:email:)` throws when the authenticator produced no credential.
private func passkeyFailed(_ code: PasskeyError.Code, _ message: String = "detail") -> APIError {
    APIError(code: .passkeyFailed, description: message, underlying: PasskeyError(code, message))
}

@Suite("Sign-in with a passkey: state machine")
struct SignInPasskeyStateMachineTests {
    @Test("offered at login only, and only with an authenticator")
    func offered() {
        #expect(SignInScreen(machine: SignInStateMachine(mode: .login)).passkey == nil, "no authenticator")
        let login = SignInScreen(machine: SignInStateMachine(mode: .login, offersPasskeys: true))
        #expect(
            login.passkey
                == ScreenAction(.signInWithPasskey, title: "Sign in with a passkey", isEnabled: true, role: .secondary))
        #expect(SignInScreen(machine: SignInStateMachine(mode: .register, offersPasskeys: true)).passkey == nil)
        var noAuthenticator = SignInStateMachine(mode: .login)
        #expect(noAuthenticator.startPasskeySignIn(email: "member@example.com") == .none)
        #expect(noAuthenticator.state == .editing)
        var registering = SignInStateMachine(mode: .register, offersPasskeys: true)
        #expect(registering.startPasskeySignIn(email: "member@example.com") == .none)
    }

    @Test("the action sends the trimmed email when it is one, nil (any passkey) otherwise; no field is required")
    func start() {
        var machine = SignInStateMachine(mode: .login, offersPasskeys: true)
        #expect(
            machine.startPasskeySignIn(email: " member@example.com ") == .signInWithPasskey(email: "member@example.com")
        )
        var empty = SignInStateMachine(mode: .login, offersPasskeys: true)
        #expect(empty.startPasskeySignIn(email: "") == .signInWithPasskey(email: nil))
        #expect(empty.fieldErrors.isEmpty)
        var partial = SignInStateMachine(mode: .login, offersPasskeys: true)
        #expect(partial.startPasskeySignIn(email: "member@") == .signInWithPasskey(email: nil))
    }

    @Test("in progress: nothing else starts, every button is disabled, the progress says it waits for the passkey")
    func inProgress() {
        var machine = SignInStateMachine(mode: .login, offersPasskeys: true)
        _ = machine.startPasskeySignIn(email: "member@example.com")
        #expect(machine.state == .signingInWithPasskey)
        #expect(machine.isBusy)
        #expect(machine.startPasskeySignIn(email: "member@example.com") == .none)
        #expect(machine.submit(email: "member@example.com", password: "pw") == .none)
        machine.switchMode(to: .register)
        #expect(machine.mode == .login)
        let screen = SignInScreen(machine: machine)
        #expect(screen.showsProgress)
        #expect(screen.progressLabel == "Waiting for the passkey")
        #expect(screen.passkey?.isEnabled == false)
        #expect(!screen.submit.isEnabled)
        #expect(!screen.switchMode.isEnabled)
        machine.succeeded()
        #expect(machine.state == .signedIn)
        #expect(SignInScreen(machine: machine).passkey?.isEnabled == false)
    }

    @Test("cancelled returns to editing with no error shown")
    func cancelled() {
        var machine = SignInStateMachine(mode: .login, offersPasskeys: true)
        _ = machine.startPasskeySignIn(email: "member@example.com")
        machine.passkeySignInFailed(passkeyFailed(.cancelled, "the passkey request was cancelled"))
        #expect(machine.state == .editing)
        let screen = SignInScreen(machine: machine)
        #expect(screen.banner == nil)
        #expect(!screen.showsProgress)
        #expect(screen.passkey?.isEnabled == true)
        #expect(screen.progressLabel == "Signing in")
    }

    @Test("failed shows the PasskeyError's message, and Try Again repeats the passkey sign-in")
    func failed() {
        var machine = SignInStateMachine(mode: .login, offersPasskeys: true)
        _ = machine.startPasskeySignIn(email: "")
        machine.passkeySignInFailed(
            passkeyFailed(.failed, "the passkey request failed (check the app's associated domains): x"))
        guard case .failed(let failure) = machine.state else {
            Issue.record("not failed: \(machine.state)")
            return
        }
        #expect(
            failure.message
                == "Passkey sign-in failed: the passkey request failed (check the app's associated domains): x")
        #expect(failure.code == "failed")
        #expect(failure.retryable)
        let screen = SignInScreen(machine: machine)
        #expect(screen.banner?.message == failure.message)
        #expect(screen.banner?.action?.kind == .signInWithPasskey)
        #expect(screen.passkey?.isEnabled == true)
        machine.edited()
        #expect(machine.state == .editing)

        var invalid = SignInStateMachine(mode: .login, offersPasskeys: true)
        _ = invalid.startPasskeySignIn(email: "")
        invalid.passkeySignInFailed(passkeyFailed(.invalidOptions, "the options carry no challenge"))
        #expect(
            invalid.state
                == .failed(
                    SignInFailure(
                        message: "Passkey sign-in failed: the options carry no challenge", retryable: true,
                        code: "invalid_options")))
    }

    @Test("no passkey for this account says so, with the way out; the action stays")
    func noCredential() {
        var machine = SignInStateMachine(mode: .login, offersPasskeys: true)
        _ = machine.startPasskeySignIn(email: "member@example.com")
        machine.passkeySignInFailed(passkeyFailed(.noCredential, "no passkey for vettid.example in this store"))
        #expect(
            machine.state
                == .failed(
                    SignInFailure(
                        message: "There is no passkey for this account on this device. "
                            + "Sign in with your password, then add a passkey.",
                        retryable: false, code: "no_credential")))
        let screen = SignInScreen(machine: machine)
        #expect(screen.banner?.action == nil)
        #expect(screen.passkey != nil)
    }

    @Test("not supported hides the action from then on, and says to use the password")
    func notSupported() {
        var machine = SignInStateMachine(mode: .login, offersPasskeys: true)
        _ = machine.startPasskeySignIn(email: "member@example.com")
        machine.passkeySignInFailed(passkeyFailed(.notSupported, "no passkey provider handled the request"))
        #expect(!machine.offersPasskeys)
        #expect(
            machine.state
                == .failed(
                    SignInFailure(
                        message: "Passkeys are not available on this device. Sign in with your password.",
                        retryable: false, code: "not_supported")))
        #expect(SignInScreen(machine: machine).passkey == nil)
        #expect(machine.startPasskeySignIn(email: "member@example.com") == .none)
        #expect(
            machine.submit(email: "member@example.com", password: "pw")
                == .send(mode: .login, email: "member@example.com", password: "pw"),
            "the password still works")
    }

    @Test("the server refusing the passkey, and network trouble, read as sign-in failures")
    func serverSide() {
        var rejected = SignInStateMachine(mode: .login, offersPasskeys: true)
        _ = rejected.startPasskeySignIn(email: "member@example.com")
        rejected.passkeySignInFailed(APIError(code: .passkeyRejected, status: 401, description: "no"))
        #expect(
            rejected.state
                == .failed(
                    SignInFailure(
                        message: "The server did not accept this passkey. Sign in with your password.",
                        retryable: false, code: "passkey_rejected")))

        var offline = SignInStateMachine(mode: .login, offersPasskeys: true)
        _ = offline.startPasskeySignIn(email: "member@example.com")
        offline.passkeySignInFailed(APIError(code: .networkError, description: "offline"))
        guard case .failed(let failure) = offline.state else {
            Issue.record("not failed: \(offline.state)")
            return
        }
        #expect(failure.message == "Cannot reach the server. Check your connection.")
        #expect(SignInScreen(machine: offline).banner?.action?.kind == .signInWithPasskey, "retry repeats the passkey")

        var unexplained = SignInStateMachine(mode: .login, offersPasskeys: true)
        _ = unexplained.startPasskeySignIn(email: "")
        unexplained.passkeySignInFailed(APIError(code: .passkeyFailed, description: "no credential"))
        guard case .failed(let other) = unexplained.state else {
            Issue.record("not failed: \(unexplained.state)")
            return
        }
        #expect(other.code == "passkey_failed")
    }

    @Test("after a password attempt fails, Try Again repeats the form, not the passkey")
    func retryKind() {
        var machine = SignInStateMachine(mode: .login, offersPasskeys: true)
        _ = machine.submit(email: "member@example.com", password: "pw")
        machine.failed(APIError(code: .networkError, description: "offline"))
        #expect(machine.lastAttempt == .form)
        #expect(SignInScreen(machine: machine).banner?.action?.kind == .submit)
    }
}

@MainActor
@Suite("Sign-in with a passkey: view model")
struct SignInPasskeyViewModelTests {
    func actions(_ log: CallLog, passkeyError: (any Error)? = nil) -> SignInViewModel.Actions {
        SignInViewModel.Actions(
            login: { email, _ in log.calls.append("login \(email)") },
            register: { _, _, _, _ in log.calls.append("register") },
            passkeySignIn: { email in
                log.calls.append("passkey \(email ?? "any")")
                if let passkeyError { throw passkeyError }
            })
    }

    @Test("without a passkey action the screen offers none and the call does nothing")
    func noAuthenticator() async {
        let log = CallLog()
        let model = SignInViewModel(actions: .init(login: { _, _ in }, register: { _, _, _, _ in }))
        #expect(model.screen.passkey == nil)
        await model.signInWithPasskey()
        #expect(model.state == .editing)
        #expect(log.calls.isEmpty)
    }

    @Test("a passkey sign-in with the typed email signs in and clears the password")
    func success() async {
        let log = CallLog()
        let model = SignInViewModel(actions: actions(log))
        #expect(model.screen.passkey?.kind == .signInWithPasskey)
        model.email = " member@example.com "
        model.password = "typed but unused"
        await model.signInWithPasskey()
        #expect(log.calls == ["passkey member@example.com"])
        #expect(model.state == .signedIn)
        #expect(model.password.isEmpty)
        #expect(!model.isSubmitting)
    }

    @Test("an empty email field lets the member pick any passkey")
    func discoverable() async {
        let log = CallLog()
        let model = SignInViewModel(actions: actions(log))
        await model.signInWithPasskey()
        #expect(log.calls == ["passkey any"])
    }

    @Test("a cancelled sheet returns to the form without an error")
    func cancelled() async {
        let log = CallLog()
        let model = SignInViewModel(actions: actions(log, passkeyError: passkeyFailed(.cancelled)))
        await model.signInWithPasskey()
        #expect(model.state == .editing)
        #expect(model.screen.banner == nil)
    }

    @Test("not supported: the error is shown once and the action disappears")
    func notSupported() async {
        let log = CallLog()
        let model = SignInViewModel(actions: actions(log, passkeyError: passkeyFailed(.notSupported)))
        await model.signInWithPasskey()
        #expect(model.screen.passkey == nil)
        #expect(
            model.screen.banner?.message == "Passkeys are not available on this device. Sign in with your password.")
        await model.signInWithPasskey()
        #expect(log.calls == ["passkey any"], "not offered again")
    }

    @Test("an error other than APIError is a retryable failure")
    func foreignError() async {
        struct Boom: Error {}
        let log = CallLog()
        let model = SignInViewModel(actions: actions(log, passkeyError: Boom()))
        await model.signInWithPasskey()
        guard case .failed(let failure) = model.state else {
            Issue.record("expected failure, got \(model.state)")
            return
        }
        #expect(failure.retryable)
        #expect(model.screen.banner?.action?.kind == .signInWithPasskey)
    }
}
