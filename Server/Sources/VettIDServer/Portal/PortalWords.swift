// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import VettIDCore

/// What the portal says, in words a person understands: failures of the services, vault states, device kinds and
/// security events. Codes stay in the markup (`data-*`) for tests and scripts; people read these.
enum PortalWords {
    /// The summary above a form whose fields have errors (announced to screen readers; the fields say what).
    static let fieldSummary = "Something in the form needs your attention: see the message next to the field."

    /// A failure of a service, for a person.
    static func describe(_ failure: APIFailure) -> String {
        switch failure.code {
        case .invalidEmail: "Enter an email address like name@example.com."
        case .weakPassword: "Choose a stronger password."
        case .emailTaken: "There is already an account with this email address. Sign in instead."
        case .invalidCredentials: "The email address or password is not right. Check both and try again."
        case .rateLimited:
            failure.headers[.retryAfter].map { "Too many attempts. Wait \($0) seconds and try again." }
                ?? "Too many attempts. Wait a minute and try again."
        case .invalidRequest: "Something in the form is not right: \(failure.message)."
        case .tooManyInvitations: "You have too many pending invitations. Revoke one you no longer need first."
        case .invitationNotFound: "That invitation no longer exists."
        case .invitationUsed: "That invitation is already used."
        case .invitationRevoked: "That invitation is already revoked."
        case .invitationExpired: "That invitation is already expired."
        case .notEnrolled: "Enroll a device before you deploy the vault. Invite your phone first."
        case .notFound: "That is no longer there. Reload the page to see what is."
        case .natsNotConfigured: "Messaging is not set up on this server."
        case .natsUnavailable:
            "The token is revoked. The messaging server has not confirmed it yet; it is told again as soon as it is back."
        case .storeUnavailable: "The service is busy. Try again in a moment."
        case .passkeyRejected where failure.status == .unauthorized:
            "The passkey was not accepted. Try again, or sign in with your password."
        case .passkeyRejected: "The passkey could not be added: \(failure.message). Try again."
        case .passkeyExists: "This passkey is already registered."
        case .passkeyNotFound: "That passkey is no longer there. Reload the page to see your passkeys."
        default:
            "Something went wrong (\(failure.code.rawValue)). Try again."
        }
    }

    static func vaultStatus(_ value: String, error: String?) -> PortalDashboardPage.Status {
        switch value {
        case "not_enrolled":
            .init(
                value: value, label: "Not enrolled",
                explanation: "No device is enrolled in your vault yet. Invite your phone to start.")
        case "pending":
            .init(
                value: value, label: "Enrollment in progress",
                explanation: "A device has started to enroll. Finish on the device.")
        case "enrolled":
            .init(
                value: value, label: "Enrolled",
                explanation: "Your device is enrolled. Deploy the vault to make it active.")
        case "active":
            .init(value: value, label: "Active", explanation: "Your vault is deployed and your device can use it.")
        default:
            .init(value: value, label: "Needs attention", explanation: error ?? "The vault could not be provisioned.")
        }
    }

    static func deviceKind(_ type: String) -> String {
        switch type {
        case "ios": "iPhone or iPad"
        case "android": "Android device"
        case "cli": "Command-line tool"
        default: type
        }
    }

    static func assurance(securityLevel: String, attestation: String?) -> String {
        let key =
            switch securityLevel {
            case "hardware": "key in the device's secure hardware"
            case "software": "key in software"
            default: "development key (testing only)"
            }
        let proof =
            switch attestation {
            case "apple-appattest": "attested by Apple App Attest"
            case "software": "software attestation"
            case "development": "development token (testing only)"
            case nil: "not attested"
            case let other?: other
            }
        return key + ", " + proof
    }

    static func event(_ kind: SecurityEvent.Kind) -> String {
        switch kind {
        case .registered: "Account created"
        case .login: "Signed in"
        case .loginFailed: "Failed sign-in (wrong password)"
        case .logout: "Signed out"
        case .deviceEnrolled: "Device enrolled"
        case .deviceRevoked: "Device revoked"
        case .invitationCreated: "Invitation created"
        case .invitationRevoked: "Invitation revoked"
        case .natsTokenRevoked: "Messaging token revoked"
        case .passkeyAdded: "Passkey added"
        case .passkeyRenamed: "Passkey renamed"
        case .passkeyRemoved: "Passkey removed"
        case .passkeySignInFailed: "Failed sign-in (passkey refused)"
        case .vaultDeployed: "Vault deployed"
        default: kind.rawValue
        }
    }

    /// The notice after a redirect (`?done=…`): only these fixed texts, never text from the request.
    static func notice(_ done: String?) -> String? {
        switch done {
        case "registered": "Your account is ready. Sign in."
        case "signed-out": "You are signed out."
        case "deployed": "Your vault is deployed."
        case "device-revoked": "The device is revoked. It can no longer open your vault."
        case "invitation-revoked": "The invitation is revoked."
        case "token-revoked": "The messaging token is revoked."
        case "passkey-added": "Your passkey is added. Next time, sign in with it."
        case "passkey-renamed": "The passkey is renamed."
        case "passkey-removed": "The passkey is removed. It can no longer sign you in."
        default: nil
        }
    }
}
