// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Testing
import VettIDClient
import VettIDCore

@testable import VettIDViewModels

@Suite("Sign-in state machine")
struct SignInStateMachineTests {
    @Test("valid login input is sent trimmed and moves to submitting; a second submit is ignored")
    func submitValid() {
        var machine = SignInStateMachine(mode: .login)
        let action = machine.submit(email: "  member@example.com ", password: "pw")
        #expect(action == .send(mode: .login, email: "member@example.com", password: "pw"))
        #expect(machine.state == .submitting)
        #expect(machine.submit(email: "member@example.com", password: "pw") == .none)
        machine.succeeded()
        #expect(machine.state == .signedIn)
        #expect(machine.submit(email: "member@example.com", password: "pw") == .none)
    }

    @Test(
        "invalid input produces field errors and no request",
        arguments: [
            ("", "pw", SignInField.email),
            ("member", "pw", .email),
            ("member@localhost", "pw", .email),
            ("a b@example.com", "pw", .email),
            ("member@example.com", "", .password),
        ])
    func invalidInput(email: String, password: String, field: SignInField) {
        var machine = SignInStateMachine(mode: .login)
        #expect(machine.submit(email: email, password: password) == .none)
        #expect(machine.fieldErrors[field] != nil)
        #expect(machine.state == .editing)
    }

    @Test("registration requires the minimum password length")
    func registerLength() {
        var machine = SignInStateMachine(mode: .register)
        #expect(machine.submit(email: "member@example.com", password: "short") == .none)
        #expect(machine.fieldErrors[.password]?.contains("12") == true)
        let long = String(repeating: "x", count: SignInStateMachine.minimumPasswordLength)
        #expect(
            machine.submit(email: "member@example.com", password: long)
                == .send(mode: .register, email: "member@example.com", password: long))
        #expect(machine.fieldErrors.isEmpty)
    }

    @Test("server failures map to messages, field errors and retryability")
    func failureMapping() throws {
        func failure(_ error: APIError) -> (SignInFailure, [SignInField: String]) {
            var machine = SignInStateMachine(mode: .register)
            _ = machine.submit(email: "member@example.com", password: "a long enough password")
            machine.failed(error)
            guard case .failed(let failure) = machine.state else {
                Issue.record("not failed: \(machine.state)")
                return (SignInFailure(message: "", retryable: false), [:])
            }
            return (failure, machine.fieldErrors)
        }

        let credentials = failure(APIError(code: .invalidCredentials, status: 401, description: "x"))
        #expect(credentials.0.message == "Wrong email or password.")
        #expect(!credentials.0.retryable)

        let weak = failure(
            APIError(
                code: .weakPassword, status: 400, description: "x", reasons: ["Add another word.", "Avoid dates."],
                score: 1))
        #expect(weak.1[.password] == "Add another word. Avoid dates.")
        #expect(weak.0.code == "weak_password")

        let taken = failure(APIError(code: .emailTaken, status: 409, description: "x"))
        #expect(taken.1[.email] != nil)

        let invalidEmail = failure(APIError(code: .invalidEmail, status: 400, description: "x"))
        #expect(invalidEmail.1[.email] != nil)

        let limited = failure(APIError(code: .rateLimited, status: 429, description: "x", retryAfter: .seconds(30)))
        #expect(limited.0.retryable)
        #expect(limited.0.message.contains("30 seconds"))

        let offline = failure(APIError(code: .networkError, description: "x"))
        #expect(offline.0.retryable)

        let server = failure(APIError(code: .internalError, status: 500, description: "boom"))
        #expect(server.0.retryable)
        #expect(!server.0.message.contains("boom"))

        let other = failure(
            APIError(code: APIError.Code(rawValue: "something_new"), status: 400, description: "Odd input"))
        #expect(!other.0.retryable)
        #expect(other.0.message.contains("Odd input"))
    }

    @Test("editing after a failure returns to editing; switching mode clears problems")
    func editAndSwitch() {
        var machine = SignInStateMachine(mode: .login)
        _ = machine.submit(email: "member@example.com", password: "pw")
        machine.failed(APIError(code: .invalidCredentials, status: 401, description: "x"))
        machine.edited()
        #expect(machine.state == .editing)
        _ = machine.submit(email: "bad", password: "")
        #expect(!machine.fieldErrors.isEmpty)
        machine.switchMode(to: .register)
        #expect(machine.mode == .register)
        #expect(machine.fieldErrors.isEmpty)
    }
}
