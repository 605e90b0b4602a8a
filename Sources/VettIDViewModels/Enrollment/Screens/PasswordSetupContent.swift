// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDClient
public import VettIDCore

/// The vault password step (seed 002's `PasswordSetupView`): the field and its confirmation, the strength meter,
/// what is wrong with the password, and the submit button.
public struct PasswordSetupContent: Sendable, Hashable {
    /// The heading.
    public let title: String
    /// What makes a good password.
    public let instructions: String
    /// The password field's label.
    public let passwordLabel: String
    /// The confirmation field's label.
    public let confirmationLabel: String
    /// The meter, or `nil` while the field is empty.
    public let meter: PasswordStrengthMeterContent?
    /// Why the password would be refused, one sentence each (empty while the field is empty).
    public let problems: [String]
    /// "The passwords do not match." once a confirmation differs from the password.
    public let confirmationError: String?
    /// Send the password: enabled when the meter accepts it and the confirmation matches.
    public let submit: ScreenAction<EnrollmentAction>

    /// Computes the step.
    /// - Parameters:
    ///   - strength: The rating of ``EnrollmentState/settingPassword(strength:)``.
    ///   - password: The password field.
    ///   - confirmation: The confirmation field.
    ///   - policy: The password rules (the product's shared policy unless given).
    ///   - isBusy: Whether a request runs.
    public init(
        strength: PasswordStrength, password: String, confirmation: String, policy: PasswordPolicy = .standard,
        isBusy: Bool = false
    ) {
        title = "Create Your Vault Password"
        instructions = policy.hint + " VettID never sees it: it is sealed on this device."
        passwordLabel = "Password"
        confirmationLabel = "Confirm password"
        meter = password.isEmpty ? nil : PasswordStrengthMeterContent(strength: strength)
        problems = password.isEmpty ? [] : strength.messages.map { "The password \($0)." }
        let matches = password == confirmation
        confirmationError = !confirmation.isEmpty && !matches ? "The passwords do not match." : nil
        submit = ScreenAction(
            .submitPassword, title: "Set Password",
            isEnabled: !password.isEmpty && strength.isAcceptable && matches && !isBusy)
    }
}
