// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// Whether the app may use the camera, as the platform reports it (`AVAuthorizationStatus` on Apple platforms),
/// plus the case of a device without a camera.
public enum CameraAuthorization: String, Sendable, Hashable, CaseIterable {
    /// The member has not been asked yet.
    case notDetermined
    /// The member allowed the camera.
    case authorized
    /// The member refused the camera (they can change it in Settings).
    case denied
    /// The camera is blocked by a policy the member cannot change (parental controls, device management).
    case restricted
    /// The device has no camera the app can use.
    case unavailable
}
