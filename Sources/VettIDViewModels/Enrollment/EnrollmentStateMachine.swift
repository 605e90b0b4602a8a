// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
public import VettIDClient
import VettIDCore

/// The pure logic of the enrollment screen: events in, a new ``EnrollmentState`` and an ``Effect`` out.
///
/// It performs nothing: the view model carries out each effect (`VaultEnrollment` calls) and reports the outcome
/// with ``sessionStarted(attestationRequired:)``, ``attested()``, ``passwordAccepted()``, ``finalized(userGUID:)`` or
/// ``failed(_:)``. The password strength is rated with a `PasswordStrengthMeter` and a password the meter refuses
/// is never submitted. Tested without a network.
public struct EnrollmentStateMachine: Sendable {
    /// What the view model must do next.
    public enum Effect: Sendable, Equatable {
        /// Nothing.
        case none
        /// Redeem the invitation (`VaultEnrollment.start(_:)`).
        case start(EnrollmentInvitationLink)
        /// Attest the device (`VaultEnrollment.attest()`).
        case attest
        /// Send the password (`VaultEnrollment.setPassword(_:)`).
        case setPassword(String)
        /// Finalize and store (`VaultEnrollment.finalize()`).
        case finalize
    }

    /// The current state.
    public private(set) var state: EnrollmentState = .initial
    /// The meter rating the password.
    public let meter: PasswordStrengthMeter
    /// Words the member may reuse (email parts), passed to the meter.
    public var userInputs: [String]
    private var failedEffect: Effect = .none

    /// Creates the machine.
    public init(meter: PasswordStrengthMeter = PasswordStrengthMeter(), userInputs: [String] = []) {
        self.meter = meter
        self.userInputs = userInputs
    }

    /// The camera opens.
    public mutating func beginScanning() -> Effect {
        switch state {
        case .initial, .scanningQR, .error(_, false):
            state = .scanningQR(error: nil)
        default:
            break
        }
        return .none
    }

    /// A QR code (or pasted link) was read.
    public mutating func scanned(_ payload: String) -> Effect {
        guard case .scanningQR = state else { return .none }
        do throws(InvitationLinkError) {
            let link = try EnrollmentInvitationLink(parsing: payload)
            return transition(to: .attesting(progress: .startingSession), effect: .start(link))
        } catch {
            state = .scanningQR(error: Self.message(for: error))
            return .none
        }
    }

    /// The member typed an invitation code instead of scanning it; `apiOrigin` is the server the app is
    /// configured for (a typed code carries none).
    public mutating func codeEntered(_ code: String, apiOrigin: URL) -> Effect {
        guard case .scanningQR = state else { return .none }
        do throws(InvitationLinkError) {
            let link = try EnrollmentInvitationLink(code: code, apiOrigin: apiOrigin)
            return transition(to: .attesting(progress: .startingSession), effect: .start(link))
        } catch {
            state = .scanningQR(error: Self.message(for: error))
            return .none
        }
    }

    /// The server opened the session.
    public mutating func sessionStarted(attestationRequired: Bool) -> Effect {
        guard case .attesting(.startingSession) = state else { return .none }
        if attestationRequired {
            return transition(to: .attesting(progress: .attestingDevice), effect: .attest)
        }
        return transition(to: .settingPassword(strength: .empty), effect: .none)
    }

    /// The server accepted the attestation.
    public mutating func attested() -> Effect {
        guard case .attesting(.attestingDevice) = state else { return .none }
        return transition(to: .settingPassword(strength: .empty), effect: .none)
    }

    /// The password field changed: rate it.
    public mutating func passwordChanged(_ password: String) -> Effect {
        guard case .settingPassword = state else { return .none }
        state = .settingPassword(strength: password.isEmpty ? .empty : meter.evaluate(password, userInputs: userInputs))
        return .none
    }

    /// The member submits the password; refused locally unless the meter accepts it.
    public mutating func submitPassword(_ password: String) -> Effect {
        guard case .settingPassword = state else { return .none }
        let strength = meter.evaluate(password, userInputs: userInputs)
        guard strength.isAcceptable else {
            state = .settingPassword(strength: strength)
            return .none
        }
        return transition(to: .finalizing(progress: .sendingPassword), effect: .setPassword(password))
    }

    /// The server accepted the password.
    public mutating func passwordAccepted() -> Effect {
        guard case .finalizing(.sendingPassword) = state else { return .none }
        return transition(to: .finalizing(progress: .sealingCredential), effect: .finalize)
    }

    /// The credential is sealed and stored.
    public mutating func finalized(userGUID: String) -> Effect {
        guard case .finalizing(.sealingCredential) = state else { return .none }
        return transition(to: .complete(userGUID: userGUID), effect: .none)
    }

    /// The running step failed with `error`.
    public mutating func failed(_ error: APIError) -> Effect {
        switch state {
        case .attesting(.startingSession):
            switch error.code {
            case .invitationNotFound, .invitationUsed, .invitationRevoked, .invitationExpired, .untrustedOrigin,
                .invalidRequest:
                state = .scanningQR(error: Self.message(for: error))
                failedEffect = .none
                return .none
            default:
                break
            }
        case .finalizing(.sendingPassword) where error.code == .weakPassword:
            // The server's verdict wins over the meter's.
            let reasons = error.reasons.map { PasswordWeakness(code: .tooGuessable, message: $0) }
            state = .settingPassword(
                strength: PasswordStrength(
                    score: error.score ?? 0, log10Guesses: 0, isAcceptable: false, reasons: reasons))
            failedEffect = .none
            return .none
        case .attesting, .finalizing:
            break
        default:
            return .none
        }
        let retryable = Self.isRetryable(error)
        if !retryable { failedEffect = .none }
        state = .error(message: Self.message(for: error), retryable: retryable)
        return .none
    }

    /// Repeats the failed step after a retryable error.
    public mutating func retry() -> Effect {
        guard case .error(_, true) = state else { return .none }
        switch failedEffect {
        case .none:
            return .none
        case .start:
            state = .attesting(progress: .startingSession)
        case .attest:
            state = .attesting(progress: .attestingDevice)
        case .setPassword:
            state = .finalizing(progress: .sendingPassword)
        case .finalize:
            state = .finalizing(progress: .sealingCredential)
        }
        return failedEffect
    }

    /// Starts over (a new invitation is needed after a non-retryable failure).
    public mutating func reset() -> Effect {
        state = .initial
        failedEffect = .none
        return .none
    }

    private mutating func transition(to state: EnrollmentState, effect: Effect) -> Effect {
        self.state = state
        failedEffect = effect
        return effect
    }

    static func isRetryable(_ error: APIError) -> Bool {
        switch error.code {
        case .networkError, .rateLimited, .useDPoPNonce: return true
        default: return (error.status ?? 0) >= 500
        }
    }

    static func message(for error: InvitationLinkError) -> String {
        switch error.code {
        case .notAnInvitation: "This is not a VettID invitation code."
        case .invalidCode: "The invitation code is not valid."
        case .invalidAPIOrigin, .missingAPIOrigin: "The invitation does not name a valid server."
        default: "The invitation code is not complete."
        }
    }

    static func message(for error: APIError) -> String {
        switch error.code {
        case .invitationNotFound: return "This invitation does not exist. Check the code or ask for a new one."
        case .invitationUsed: return "This invitation has already been used. Ask for a new one."
        case .invitationRevoked: return "This invitation was revoked. Ask for a new one."
        case .invitationExpired: return "This invitation has expired. Ask for a new one."
        case .untrustedOrigin: return "This invitation is for another server."
        case .sessionExpired: return "The enrollment took too long and expired. Scan a new invitation."
        case .stepOutOfOrder, .transactionKeyUsed:
            return "The enrollment cannot continue. Start again with a new invitation."
        case .attestationFailed, .attestationInvalid, .attestationUntrustedRoot, .attestationWrongEnvironment,
            .challengeExpired:
            return "This device could not be verified."
        case .deviceKeyFailed: return "This device's key is not available."
        case .storageFailed: return "The credential could not be saved on this device."
        case .networkError: return "Cannot reach the server. Check your connection."
        case .rateLimited:
            if let wait = error.retryAfter {
                return "Too many attempts. Try again in \(max(1, wait.components.seconds)) seconds."
            }
            return "Too many attempts. Try again later."
        default:
            return (error.status ?? 0) >= 500
                ? "The server had a problem. Try again." : "Enrollment failed: \(error.description)"
        }
    }
}
