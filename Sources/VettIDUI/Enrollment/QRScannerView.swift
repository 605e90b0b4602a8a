// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

#if canImport(SwiftUI)
    public import SwiftUI
    public import VettIDViewModels
    #if canImport(UIKit)
        import UIKit
    #endif

    /// The invitation scanner (seed 002's `QRScannerView`): the camera when allowed (iOS), why it is not shown with
    /// what helps (ask, Settings), the last refused code, and the manual `XXXX-XXXX` entry.
    public struct QRScannerView: View {
        let content: QRScannerContent
        @Binding var manualCode: String
        let onCodeScanned: @MainActor (String) -> Void
        let onCameraFailure: @MainActor (CameraCaptureFailure) -> Void
        let perform: @MainActor (EnrollmentAction) -> Void

        /// Creates the scanner.
        /// - Parameters:
        ///   - content: The presentation.
        ///   - manualCode: The manual entry's text (the view model keeps it formatted).
        ///   - onCodeScanned: Receives each new QR payload once.
        ///   - onCameraFailure: Receives why the camera preview could not be set up
        ///     (``EnrollmentViewModel/cameraFailed(_:)``), so that the content stops showing a black viewfinder.
        ///   - perform: Receives the actions.
        public init(
            content: QRScannerContent, manualCode: Binding<String>,
            onCodeScanned: @escaping @MainActor (String) -> Void,
            onCameraFailure: @escaping @MainActor (CameraCaptureFailure) -> Void,
            perform: @escaping @MainActor (EnrollmentAction) -> Void
        ) {
            self.content = content
            self._manualCode = manualCode
            self.onCodeScanned = onCodeScanned
            self.onCameraFailure = onCameraFailure
            self.perform = perform
        }

        public var body: some View {
            VStack(alignment: .leading, spacing: 16) {
                Text(content.instructions)
                    .fixedSize(horizontal: false, vertical: true)
                if content.showsCamera {
                    #if canImport(UIKit) && canImport(AVFoundation)
                        QRCameraPreview(onCode: onCodeScanned, onFailure: onCameraFailure)
                            .frame(height: 320)
                            .clipShape(RoundedRectangle(cornerRadius: 12))
                            .accessibilityElement(children: .ignore)
                            .accessibilityLabel(Text("Camera viewfinder"))
                            .accessibilityHint(Text("Point it at the QR code of your invitation."))
                    #endif
                }
                if let banner = content.cameraBanner {
                    BannerView(banner, perform: perform)
                }
                if let error = content.error {
                    BannerView(error, perform: perform)
                }
                if let entry = content.manualEntry {
                    VStack(alignment: .leading, spacing: 8) {
                        Text(entry.label)
                            .font(.headline)
                        TextField(entry.label, text: $manualCode, prompt: Text(entry.placeholder))
                            .font(.title3.monospaced())
                            .autocorrectionDisabled()
                            #if canImport(UIKit)
                                .textInputAutocapitalization(.characters)
                            #endif
                            .onSubmit {
                                if entry.submit.isEnabled { perform(entry.submit.kind) }
                            }
                        ScreenActionButton(entry.submit, perform: perform)
                    }
                }
            }
        }
    }
#endif
