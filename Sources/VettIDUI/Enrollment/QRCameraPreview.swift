// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

#if canImport(SwiftUI) && canImport(UIKit) && canImport(AVFoundation)
    import AVFoundation
    import Foundation
    import SwiftUI
    import UIKit
    import VettIDViewModels

    /// The camera preview that reads QR codes (iOS): an `AVCaptureSession` with a metadata output for `.qr`, its
    /// preview layer filling the view. Each payload reaches `onCode` once (``QRScanFilter``); a session that cannot
    /// be set up reaches `onFailure` (the scanner then hides the preview and says why, rather than stay black); the
    /// session stops when the view goes away.
    struct QRCameraPreview: UIViewRepresentable {
        let onCode: @MainActor (String) -> Void
        let onFailure: @MainActor (CameraCaptureFailure) -> Void

        func makeCoordinator() -> QRCaptureController {
            QRCaptureController()
        }

        func makeUIView(context: Context) -> PreviewView {
            let view = PreviewView()
            view.previewLayer.videoGravity = .resizeAspectFill
            view.previewLayer.session = context.coordinator.session
            context.coordinator.onCode = onCode
            context.coordinator.onFailure = onFailure
            context.coordinator.start()
            return view
        }

        func updateUIView(_ view: PreviewView, context: Context) {
            context.coordinator.onCode = onCode
            context.coordinator.onFailure = onFailure
        }

        static func dismantleUIView(_ view: PreviewView, coordinator: QRCaptureController) {
            coordinator.stop()
        }

        /// A view whose layer is the capture preview layer.
        final class PreviewView: UIView {
            override class var layerClass: AnyClass { AVCaptureVideoPreviewLayer.self }

            var previewLayer: AVCaptureVideoPreviewLayer {
                // The layer is of `layerClass` by UIKit's contract.
                layer as! AVCaptureVideoPreviewLayer
            }
        }
    }

    /// Owns the capture session. AVFoundation asks that a session be configured, started and stopped off the main
    /// thread, on one serial queue: every use of `session` after `init` happens on `sessionQueue` (that confinement is
    /// why this type is `@unchecked Sendable`); metadata arrives on the main queue.
    final class QRCaptureController: NSObject, AVCaptureMetadataOutputObjectsDelegate, @unchecked Sendable {
        let session = AVCaptureSession()
        private let sessionQueue = DispatchQueue(label: "dev.vettid.qr-capture")
        /// Main thread only.
        @MainActor var onCode: ((String) -> Void)?
        /// Main thread only.
        @MainActor var onFailure: ((CameraCaptureFailure) -> Void)?
        /// Main thread only.
        @MainActor private var filter = QRScanFilter()
        /// `sessionQueue` only.
        private var configured = false

        /// Configures the session (once it has succeeded, not again) and starts it; a configuration that fails is
        /// reported to `onFailure` and leaves the session as it was, so a later `start()` configures it afresh.
        func start() {
            sessionQueue.async { [self] in
                if !configured {
                    if let failure = configure() {
                        Task { @MainActor [self] in onFailure?(failure) }
                        return
                    }
                    configured = true
                }
                if !session.isRunning {
                    session.startRunning()
                }
            }
        }

        func stop() {
            sessionQueue.async { [self] in
                if session.isRunning {
                    session.stopRunning()
                }
            }
        }

        /// On `sessionQueue`: the back camera as input, a metadata output for QR codes delivering on the main queue.
        /// Returns why it failed, if it did. A failure after the input or the output was added removes them again,
        /// inside the same configuration block: otherwise the next attempt would find the camera attached, be refused
        /// its new input, and leave the preview black.
        private func configure() -> CameraCaptureFailure? {
            guard let camera = AVCaptureDevice.default(for: .video) else { return .noCamera }
            let input: AVCaptureDeviceInput
            do {
                input = try AVCaptureDeviceInput(device: camera)
            } catch {
                return .cameraUnavailable
            }
            let output = AVCaptureMetadataOutput()
            session.beginConfiguration()
            defer { session.commitConfiguration() }
            guard session.canAddInput(input) else { return .sessionRefused }
            session.addInput(input)
            guard session.canAddOutput(output) else {
                session.removeInput(input)
                return .sessionRefused
            }
            session.addOutput(output)
            // The types an output can read are known once it is attached to a session with a camera input.
            guard output.availableMetadataObjectTypes.contains(.qr) else {
                session.removeOutput(output)
                session.removeInput(input)
                return .qrUnsupported
            }
            output.setMetadataObjectsDelegate(self, queue: .main)
            output.metadataObjectTypes = [.qr]
            return nil
        }

        nonisolated func metadataOutput(
            _ output: AVCaptureMetadataOutput, didOutput metadataObjects: [AVMetadataObject],
            from connection: AVCaptureConnection
        ) {
            let payloads = metadataObjects.compactMap { ($0 as? AVMetadataMachineReadableCodeObject)?.stringValue }
            // Delivered on the main queue (setMetadataObjectsDelegate(_:queue: .main)).
            MainActor.assumeIsolated {
                for payload in payloads where filter.accept(payload, at: Date()) {
                    onCode?(payload)
                }
            }
        }
    }
#endif
