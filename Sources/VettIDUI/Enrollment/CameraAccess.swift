// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

#if canImport(SwiftUI)
    public import Foundation
    public import Observation
    public import VettIDViewModels
    #if canImport(AVFoundation)
        import AVFoundation
    #endif
    #if canImport(UIKit)
        import UIKit
    #endif

    /// Whether the app may use the camera, read from AVFoundation, and the request for access.
    ///
    /// On a Mac (no `UIKit`) the scanner offers manual entry only: ``authorization`` is
    /// ``CameraAuthorization/unavailable``.
    @Observable
    @MainActor
    public final class CameraAccess {
        /// The current authorization.
        public private(set) var authorization: CameraAuthorization

        /// Creates the object without touching the camera (SwiftUI may create a `@State` default many times):
        /// ``authorization`` is ``CameraAuthorization/notDetermined`` until ``refresh()``.
        public init() {
            authorization = .notDetermined
        }

        /// Reads the authorization again (e.g. when the scanner opens, or the app returns from Settings).
        public func refresh() {
            authorization = Self.current()
        }

        /// Shows the system's camera prompt (only while ``CameraAuthorization/notDetermined``), then reads the result.
        public func request() async {
            #if canImport(UIKit) && canImport(AVFoundation)
                if authorization == .notDetermined {
                    _ = await AVCaptureDevice.requestAccess(for: .video)
                }
            #endif
            refresh()
        }

        /// The app's page in Settings, where the member can allow the camera; `nil` where there is none.
        public static var settingsURL: URL? {
            #if canImport(UIKit)
                URL(string: UIApplication.openSettingsURLString)
            #else
                nil
            #endif
        }

        static func current() -> CameraAuthorization {
            #if canImport(UIKit) && canImport(AVFoundation)
                guard AVCaptureDevice.default(for: .video) != nil else { return .unavailable }
                switch AVCaptureDevice.authorizationStatus(for: .video) {
                case .notDetermined: return .notDetermined
                case .authorized: return .authorized
                case .denied: return .denied
                case .restricted: return .restricted
                @unknown default: return .denied
                }
            #else
                return .unavailable
            #endif
        }
    }
#endif
