// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

#if canImport(SwiftUI)
    public import SwiftUI
    public import VettIDViewModels

    /// The enrollment flow (seed 002's `EnrollmentView` container): welcome, scanner, progress, password, done, in a
    /// navigation stack; it only lays out ``EnrollmentScreen`` and maps its actions to the view model.
    public struct EnrollmentView: View {
        @Bindable var model: EnrollmentViewModel
        @State private var camera = CameraAccess()
        @Environment(\.openURL) private var openURL
        let onDone: @MainActor () -> Void

        /// Creates the flow.
        /// - Parameters:
        ///   - model: The view model (give it `manualEntryOrigin` to offer typed codes).
        ///   - onDone: Leaves the flow (after completion, or when the member cancels).
        public init(model: EnrollmentViewModel, onDone: @escaping @MainActor () -> Void) {
            self._model = Bindable(model)
            self.onDone = onDone
        }

        public var body: some View {
            let screen = model.screen(camera: camera.authorization)
            NavigationStack {
                ScrollView {
                    VStack(alignment: .leading, spacing: 24) {
                        switch screen.step {
                        case .welcome(let message, let start):
                            Text(message)
                                .fixedSize(horizontal: false, vertical: true)
                            ScreenActionButton(start, perform: perform)
                        case .scanner(let content):
                            QRScannerView(
                                content: content, manualCode: $model.manualCode,
                                onCodeScanned: { payload in Task { await model.scanned(payload) } },
                                onCameraFailure: { failure in model.cameraFailed(failure) },
                                perform: perform)
                        case .progress(let content):
                            AttestationView(content: content)
                        case .password(let content):
                            PasswordSetupView(
                                content: content, password: $model.password, confirmation: $model.confirmation,
                                perform: perform)
                        case .complete(let content):
                            EnrollmentCompleteView(content: content, perform: perform)
                        case .failure(let badge, let message, let retry, let startOver):
                            StatusBadgeView(badge)
                            Text(message)
                                .fixedSize(horizontal: false, vertical: true)
                            if let retry {
                                ScreenActionButton(retry, perform: perform)
                            }
                            ScreenActionButton(startOver, perform: perform)
                        }
                    }
                    .padding()
                }
                .navigationTitle(screen.title)
                .toolbar {
                    ToolbarItem(placement: .cancellationAction) {
                        if screen.allowsCancel {
                            Button("Cancel") { onDone() }
                        }
                    }
                }
            }
            .interactiveDismissDisabled(!screen.allowsCancel)
            .task { @MainActor [camera] in
                camera.refresh()
            }
        }

        private func perform(_ action: EnrollmentAction) {
            switch action {
            case .startScanning:
                camera.refresh()
                model.beginScanning()
            case .requestCameraAccess:
                Task { await camera.request() }
            case .openSettings:
                if let url = CameraAccess.settingsURL { openURL(url) }
            case .retryCamera:
                model.retryCamera()
            case .submitCode:
                Task { await model.submitCode() }
            case .submitPassword:
                Task { await model.submitPassword() }
            case .retry:
                Task { await model.retry() }
            case .startOver:
                model.reset()
            case .done:
                onDone()
            }
        }
    }
#endif
