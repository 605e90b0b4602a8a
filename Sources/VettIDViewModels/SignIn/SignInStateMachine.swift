// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDClient
import VettIDCore

/// The pure logic of the sign-in / registration form: validation, submission, signing in with a passkey, and how
/// failures read.
///
/// It performs nothing itself: ``submit(email:password:firstName:lastName:)`` and ``startPasskeySignIn(email:)``
/// return an ``Action`` that the view model carries out, and the outcome comes back through ``succeeded()``,
/// ``failed(_:)`` or ``passkeySignInFailed(_:)``. Tested without a network.
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
        /// A passkey sign-in is in flight (the system's passkey sheet, then the server); nothing else starts.
        case signingInWithPasskey
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
        /// Sign in with a passkey: offer the passkeys of `email` (trimmed), or, when `nil`, any passkey of the
        /// server (the email field held no address).
        case signInWithPasskey(email: String?)
    }

    /// What the last attempt was, so that "Try Again" repeats it.
    public enum Attempt: Sendable, Equatable {
        /// The form (login or registration).
        case form
        /// A passkey sign-in.
        case passkey
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
    /// Whether signing in with a passkey is offered: the app gave an authenticator, and it has not said that this
    /// device cannot do passkeys.
    public private(set) var offersPasskeys: Bool
    /// The last attempt, `nil` before the first.
    public private(set) var lastAttempt: Attempt?

    /// Creates the machine.
    /// - Parameters:
    ///   - mode: Login or registration.
    ///   - offersPasskeys: Whether the app can sign in with a passkey (it has a passkey authenticator).
    public init(mode: Mode = .login, offersPasskeys: Bool = false) {
        self.mode = mode
        self.offersPasskeys = offersPasskeys
    }

    /// Whether a request is in flight (the form's or a passkey sign-in).
    public var isBusy: Bool { state == .submitting || state == .signingInWithPasskey }

    /// The longest first or last name the server accepts.
    public static let maximumNameLength = 100

    /// The user submits the form; `firstName` and `lastName` are optional and used at registration only.
    public mutating func submit(email: String, password: String, firstName: String = "", lastName: String = "")
        -> Action
    {
        guard !isBusy, state != .signedIn else { return .none }
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
        lastAttempt = .form
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

    /// The member asks to sign in with a passkey (login only). `email` is the email field: when it holds an
    /// address, the server offers only that member's passkeys; otherwise any passkey of the server (the member
    /// picks one). No field is required.
    public mutating func startPasskeySignIn(email: String) -> Action {
        guard offersPasskeys, mode == .login, !isBusy, state != .signedIn else { return .none }
        let trimmed = email.trimmingWhitespace()
        fieldErrors = [:]
        state = .signingInWithPasskey
        lastAttempt = .passkey
        return .signInWithPasskey(email: Self.looksLikeEmail(trimmed) ? trimmed : nil)
    }

    /// The passkey sign-in failed with `error` (`AuthManager.signInWithPasskey(using:email:)`'s).
    ///
    /// `passkey_failed` is read by its underlying `PasskeyError`: the member cancelling the system sheet is no
    /// failure (back to editing, nothing shown); no passkey and no passkey support say so, and the latter stops
    /// offering passkeys; any other shows the error's message. `passkey_rejected` (the server refused the passkey)
    /// has its own message; anything else (network, rate limit, server) reads as for the form.
    public mutating func passkeySignInFailed(_ error: APIError) {
        fieldErrors = [:]
        lastAttempt = .passkey
        if error.code == .passkeyFailed, let passkey = error.underlying as? PasskeyError {
            let code = passkey.code.rawValue
            switch passkey.code {
            case .cancelled:
                state = .editing
            case .noCredential:
                state = .failed(
                    SignInFailure(
                        message: "There is no passkey for this account on this device. "
                            + "Sign in with your password, then add a passkey.",
                        retryable: false, code: code))
            case .notSupported:
                offersPasskeys = false
                state = .failed(
                    SignInFailure(
                        message: "Passkeys are not available on this device. Sign in with your password.",
                        retryable: false, code: code))
            default:
                state = .failed(
                    SignInFailure(message: "Passkey sign-in failed: \(passkey.message)", retryable: true, code: code))
            }
            return
        }
        if error.code == .passkeyRejected {
            state = .failed(
                SignInFailure(
                    message: "The server did not accept this passkey. Sign in with your password.", retryable: false,
                    code: error.code.rawValue))
            return
        }
        failed(error)
    }

    /// The user changed a field after a failure: back to editing.
    public mutating func edited() {
        if case .failed = state { state = .editing }
    }

    /// Switch between login and register (clears problems).
    public mutating func switchMode(to mode: Mode) {
        guard !isBusy else { return }
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
