// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDClient
import VettIDCore

/// The pure logic of the sign-in / registration form: validation, submission, and how failures read.
///
/// It performs nothing itself: ``submit(email:password:firstName:lastName:)`` returns an ``Action`` that the view model carries
/// out, and the outcome comes back through ``succeeded()`` or ``failed(_:)``. Tested without a network.
public struct SignInStateMachine: Sendable, Equatable {
    /// Log in to an existing account or register a new one.
    public enum Mode: Sendable, Equatable {
        /// Log in.
        case login
        /// Create an account, then log in.
        case register
    }

    /// Where the form is.
    public enum State: Sendable, Equatable {
        /// The user is filling in the form.
        case editing
        /// A request is in flight; further submissions are ignored.
        case submitting
        /// The last attempt failed.
        case failed(SignInFailure)
        /// Signed in.
        case signedIn
    }

    /// What the view model must do next.
    public enum Action: Sendable, Equatable {
        /// Nothing (invalid input, or a request already in flight).
        case none
        /// Send the credentials (trimmed email) in the given mode; at registration also the names (trimmed,
        /// `nil` when empty).
        case send(mode: Mode, email: String, password: String, firstName: String? = nil, lastName: String? = nil)
    }

    /// The minimum password length at registration: the shared policy's, which the server enforces (with a
    /// strength score).
    public static let minimumPasswordLength = PasswordPolicy.standard.minimumLength

    /// Login or register.
    public var mode: Mode
    /// The current state.
    public private(set) var state: State = .editing
    /// Per-field problems to show under the fields.
    public private(set) var fieldErrors: [SignInField: String] = [:]

    /// Creates the machine.
    public init(mode: Mode = .login) {
        self.mode = mode
    }

    /// The longest first or last name the server accepts.
    public static let maximumNameLength = 100

    /// The user submits the form; `firstName` and `lastName` are optional and used at registration only.
    public mutating func submit(email: String, password: String, firstName: String = "", lastName: String = "")
        -> Action
    {
        guard state != .submitting, state != .signedIn else { return .none }
        let trimmed = email.trimmingWhitespace()
        var errors: [SignInField: String] = [:]
        if !Self.looksLikeEmail(trimmed) {
            errors[.email] = "Enter an email address like name@example.com."
        }
        if password.isEmpty {
            errors[.password] = "Enter your password."
        } else if mode == .register, password.count < Self.minimumPasswordLength {
            errors[.password] = "Use at least \(Self.minimumPasswordLength) characters."
        }
        let first = firstName.trimmingWhitespace()
        let last = lastName.trimmingWhitespace()
        if mode == .register {
            if first.count > Self.maximumNameLength {
                errors[.firstName] = "Use at most \(Self.maximumNameLength) characters."
            }
            if last.count > Self.maximumNameLength {
                errors[.lastName] = "Use at most \(Self.maximumNameLength) characters."
            }
        }
        fieldErrors = errors
        guard errors.isEmpty else {
            state = .editing
            return .none
        }
        state = .submitting
        guard mode == .register else { return .send(mode: mode, email: trimmed, password: password) }
        return .send(
            mode: mode, email: trimmed, password: password, firstName: first.isEmpty ? nil : first,
            lastName: last.isEmpty ? nil : last)
    }

    /// The request succeeded.
    public mutating func succeeded() {
        fieldErrors = [:]
        state = .signedIn
    }

    /// The request failed with `error`.
    public mutating func failed(_ error: APIError) {
        fieldErrors = [:]
        switch error.code {
        case .invalidCredentials:
            state = .failed(
                SignInFailure(message: "Wrong email or password.", retryable: false, code: error.code.rawValue))
        case .invalidEmail:
            fieldErrors[.email] = "This email address is not valid."
            state = .failed(
                SignInFailure(message: "Check the email address.", retryable: false, code: error.code.rawValue))
        case .emailTaken:
            fieldErrors[.email] = "An account with this email already exists."
            state = .failed(
                SignInFailure(
                    message: "Log in instead, or use another email.", retryable: false, code: error.code.rawValue))
        case .weakPassword:
            let reasons = error.reasons.isEmpty ? "Choose a stronger password." : error.reasons.joined(separator: " ")
            fieldErrors[.password] = reasons
            state = .failed(
                SignInFailure(message: "The password is too weak.", retryable: false, code: error.code.rawValue))
        case .rateLimited:
            var message = "Too many attempts."
            if let wait = error.retryAfter {
                message += " Try again in \(max(1, wait.components.seconds)) seconds."
            } else {
                message += " Try again later."
            }
            state = .failed(SignInFailure(message: message, retryable: true, code: error.code.rawValue))
        case .networkError:
            state = .failed(
                SignInFailure(
                    message: "Cannot reach the server. Check your connection.", retryable: true,
                    code: error.code.rawValue))
        default:
            let serverSide = (error.status ?? 0) >= 500
            state = .failed(
                SignInFailure(
                    message: serverSide
                        ? "The server had a problem. Try again." : "Sign-in failed: \(error.description)",
                    retryable: serverSide,
                    code: error.code.rawValue
                )
            )
        }
    }

    /// The user changed a field after a failure: back to editing.
    public mutating func edited() {
        if case .failed = state { state = .editing }
    }

    /// Switch between login and register (clears problems).
    public mutating func switchMode(to mode: Mode) {
        guard state != .submitting else { return }
        self.mode = mode
        fieldErrors = [:]
        if state != .signedIn { state = .editing }
    }

    static func looksLikeEmail(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !text.contains(" ") else { return false }
        return !parts[1].hasPrefix(".") && !parts[1].hasSuffix(".")
    }
}

extension String {
    func trimmingWhitespace() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
