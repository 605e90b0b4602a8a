// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

#if canImport(SwiftUI)
    public import SwiftUI
    public import VettIDViewModels
    #if canImport(UIKit)
        import UIKit
    #endif

    /// Sign in and registration (seed 003): email and password, first and last name when registering, the failure,
    /// the switch between the two, and "Sign in with a passkey" when the view model offers it.
    public struct SignInView: View {
        @Bindable var model: SignInViewModel

        /// Creates the screen.
        public init(model: SignInViewModel) {
            self._model = Bindable(model)
        }

        public var body: some View {
            let screen = model.screen
            Form {
                Section {
                    ForEach(screen.fields) { field in
                        SignInFieldRow(field: field, text: binding(for: field.field))
                    }
                }
                if let banner = screen.banner {
                    Section {
                        BannerView(banner, perform: perform)
                    }
                }
                Section {
                    ScreenActionButton(screen.submit, perform: perform)
                    if let passkey = screen.passkey {
                        ScreenActionButton(passkey, perform: perform)
                    }
                    ScreenActionButton(screen.switchMode, perform: perform)
                }
                if screen.showsProgress {
                    ProgressView()
                        .accessibilityLabel(Text(screen.progressLabel))
                }
            }
            .navigationTitle(screen.title)
            .onSubmit {
                if screen.submit.isEnabled { perform(.submit) }
            }
        }

        private func binding(for field: SignInField) -> Binding<String> {
            switch field {
            case .email: $model.email
            case .password: $model.password
            case .firstName: $model.firstName
            case .lastName: $model.lastName
            }
        }

        private func perform(_ kind: SignInScreen.ActionKind) {
            switch kind {
            case .submit: Task { await model.submit() }
            case .switchToRegister: model.switchMode(to: .register)
            case .switchToLogin: model.switchMode(to: .login)
            case .signInWithPasskey: Task { await model.signInWithPasskey() }
            }
        }
    }

    /// One field of the sign-in form with its error underneath.
    struct SignInFieldRow: View {
        let field: SignInScreen.Field
        @Binding var text: String

        var body: some View {
            VStack(alignment: .leading, spacing: 4) {
                if field.isSecure {
                    SecureField(field.label, text: $text)
                        #if canImport(UIKit)
                            .textContentType(SignInFieldRow.contentType(for: field.contentKind))
                        #endif
                } else {
                    TextField(field.label, text: $text)
                        .autocorrectionDisabled()
                        #if canImport(UIKit)
                            .textContentType(SignInFieldRow.contentType(for: field.contentKind))
                            .textInputAutocapitalization(field.field == .email ? .never : .words)
                            .keyboardType(field.field == .email ? .emailAddress : .default)
                        #endif
                }
                if let error = field.error {
                    MessageLine(error, tone: .critical)
                }
            }
        }

        #if canImport(UIKit)
            /// Password AutoFill's content type (https://developer.apple.com/documentation/security/enabling-password-autofill-on-a-text-input-view).
            static func contentType(for kind: SignInScreen.Field.ContentKind) -> UITextContentType {
                switch kind {
                case .username: .username
                case .password: .password
                case .newPassword: .newPassword
                case .givenName: .givenName
                case .familyName: .familyName
                }
            }
        #endif
    }
#endif
