// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Testing
import VettIDClient
import VettIDCore

@testable import VettIDViewModels

/// Records the calls a view model makes.
@MainActor
final class CallLog {
    var calls: [String] = []
}

@MainActor
@Suite("Sign-in view model")
struct SignInViewModelTests {
    func actions(_ log: CallLog, failWith error: APIError? = nil) -> SignInViewModel.Actions {
        SignInViewModel.Actions(
            login: { email, password in
                log.calls.append("login \(email) \(password)")
                if let error { throw error }
            },
            register: { email, password, firstName, lastName in
                log.calls.append(
                    "register \(email) \(password)" + (firstName.map { " first=\($0)" } ?? "")
                        + (lastName.map { " last=\($0)" } ?? ""))
                if let error { throw error }
            }
        )
    }

    @Test("a valid login calls the action once, signs in and clears the password")
    func loginSuccess() async {
        let log = CallLog()
        let model = SignInViewModel(actions: actions(log))
        model.email = "member@example.com"
        model.password = "secret password"
        await model.submit()
        #expect(log.calls == ["login member@example.com secret password"])
        #expect(model.state == .signedIn)
        #expect(model.password.isEmpty)
        #expect(!model.isSubmitting)
    }

    @Test("invalid input never reaches the action")
    func invalidInput() async {
        let log = CallLog()
        let model = SignInViewModel(mode: .register, actions: actions(log))
        model.email = "member@example.com"
        model.password = "short"
        await model.submit()
        #expect(log.calls.isEmpty)
        #expect(model.fieldErrors[.password] != nil)
    }

    @Test("a failure is shown, and typing again returns to editing")
    func failureThenEdit() async {
        let log = CallLog()
        let model = SignInViewModel(
            mode: .register,
            actions: actions(log, failWith: APIError(code: .emailTaken, status: 409, description: "taken"))
        )
        model.email = "member@example.com"
        model.password = "a long enough password"
        await model.submit()
        #expect(log.calls == ["register member@example.com a long enough password"])
        guard case .failed(let failure) = model.state else {
            Issue.record("expected failure, got \(model.state)")
            return
        }
        #expect(failure.code == "email_taken")
        #expect(model.fieldErrors[.email] != nil)
        model.email = "other@example.com"
        #expect(model.state == .editing)
    }

    @Test("errors other than APIError become network errors")
    func foreignError() async {
        struct Boom: Error {}
        let model = SignInViewModel(
            actions: .init(login: { _, _ in throw Boom() }, register: { _, _, _, _ in })
        )
        model.email = "member@example.com"
        model.password = "pw"
        await model.submit()
        guard case .failed(let failure) = model.state else {
            Issue.record("expected failure")
            return
        }
        #expect(failure.retryable)
    }
}
