// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

#if canImport(SwiftUI)
    public import SwiftUI
    public import VettIDViewModels
    #if canImport(UIKit)
        import UIKit
    #endif

    /// The vault password (seed 002's `PasswordSetupView`): password and confirmation, the strength meter, what is
    /// wrong, and Set Password.
    public struct PasswordSetupView: View {
        let content: PasswordSetupContent
        @Binding var password: String
        @Binding var confirmation: String
        let perform: @MainActor (EnrollmentAction) -> Void

        /// Creates the view.
        public init(
            content: PasswordSetupContent, password: Binding<String>, confirmation: Binding<String>,
            perform: @escaping @MainActor (EnrollmentAction) -> Void
        ) {
            self.content = content
            self._password = password
            self._confirmation = confirmation
            self.perform = perform
        }

        public var body: some View {
            VStack(alignment: .leading, spacing: 16) {
                Text(content.title)
                    .font(.title2)
                Text(content.instructions)
                    .foregroundStyle(.secondary)
                    .fixedSize(horizontal: false, vertical: true)
                SecureField(content.passwordLabel, text: $password)
                    #if canImport(UIKit)
                        .textContentType(.newPassword)
                    #endif
                if let meter = content.meter {
                    PasswordStrengthMeterView(meter: meter)
                }
                ForEach(content.problems, id: \.self) { problem in
                    MessageLine(problem, tone: .critical)
                }
                SecureField(content.confirmationLabel, text: $confirmation)
                    #if canImport(UIKit)
                        .textContentType(.newPassword)
                    #endif
                    .onSubmit {
                        if content.submit.isEnabled { perform(content.submit.kind) }
                    }
                if let error = content.confirmationError {
                    MessageLine(error, tone: .critical)
                }
                ScreenActionButton(content.submit, perform: perform)
            }
        }
    }

    /// The strength meter: a bar in the verdict's tone and the level's word.
    public struct PasswordStrengthMeterView: View {
        let meter: PasswordStrengthMeterContent

        /// Creates the meter.
        public init(meter: PasswordStrengthMeterContent) {
            self.meter = meter
        }

        public var body: some View {
            HStack {
                ProgressView(value: meter.fraction)
                    .tint(meter.tone.color)
                Text(meter.label)
                    .font(.caption)
                    .foregroundStyle(meter.tone.color)
            }
            .accessibilityElement(children: .ignore)
            .accessibilityLabel(Text("Password strength"))
            .accessibilityValue(Text(meter.accessibilityValue))
        }
    }
#endif
