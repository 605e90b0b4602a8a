// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

#if canImport(SwiftUI) && canImport(UIKit) && canImport(AVFoundation)
    import AVFoundation
    import Foundation
    import SwiftUI
    import UIKit
    import VettIDViewModels

    /// The camera preview that reads QR codes (iOS): an `AVCaptureSession` with a metadata output for `.qr`, its
    /// preview layer filling the view. Each payload reaches `onCode` once (``QRScanFilter``); the session stops when
    /// the view goes away.
    struct QRCameraPreview: UIViewRepresentable {
        let onCode: @MainActor (String) -> Void

        func makeCoordinator() -> QRCaptureController {
            QRCaptureController()
        }

        func makeUIView(context: Context) -> PreviewView {
            let view = PreviewView()
            view.previewLayer.videoGravity = .resizeAspectFill
            view.previewLayer.session = context.coordinator.session
            context.coordinator.onCode = onCode
            context.coordinator.start()
            return view
        }

        func updateUIView(_ view: PreviewView, context: Context) {
            context.coordinator.onCode = onCode
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
        @MainActor private var filter = QRScanFilter()
        private var configured = false

        func start() {
            sessionQueue.async { [self] in
                if !configured {
                    configured = configure()
                }
                if configured && !session.isRunning {
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
        private func configure() -> Bool {
            guard let camera = AVCaptureDevice.default(for: .video),
                let input = try? AVCaptureDeviceInput(device: camera)
            else {
                return false
            }
            session.beginConfiguration()
            defer { session.commitConfiguration() }
            let output = AVCaptureMetadataOutput()
            guard session.canAddInput(input), session.canAddOutput(output) else { return false }
            session.addInput(input)
            session.addOutput(output)
            output.setMetadataObjectsDelegate(self, queue: .main)
            guard output.availableMetadataObjectTypes.contains(.qr) else { return false }
            output.metadataObjectTypes = [.qr]
            return true
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
