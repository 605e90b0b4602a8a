// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

#if canImport(CryptoKit)
    import CryptoKit
#endif
#if canImport(DeviceCheck)
    import DeviceCheck
#endif
#if canImport(CryptoKit) && canImport(DeviceCheck)
    import Foundation
#endif

extension PlatformCapabilities {
    /// The platform this process runs on. On Apple platforms it asks CryptoKit (`SecureEnclave.isAvailable`),
    /// DeviceCheck (`DCAppAttestService.shared.isSupported`) and Foundation (whether `Bundle.main` is an `.app` or
    /// `.appex` bundle); on Linux it is ``linux``. The Apple branch is
    /// written against Apple's documentation, type-checked on Linux against Tests/AppleAPIShims
    /// (scripts/check-apple-only) and never run on a device by this project.
    public static var current: PlatformCapabilities {
        #if canImport(CryptoKit) && canImport(DeviceCheck)
            #if targetEnvironment(simulator)
                let simulator = true
            #else
                let simulator = false
            #endif
            #if os(macOS) || targetEnvironment(macCatalyst)
                let mac = true
            #else
                let mac = false
            #endif
            return PlatformCapabilities(
                isSimulator: simulator,
                hasSecureEnclave: SecureEnclave.isAvailable,
                hasAppAttest: DCAppAttestService.shared.isSupported,
                hasKeychain: true,
                isMac: mac,
                runsInAppBundle: ["app", "appex"].contains(Bundle.main.bundleURL.pathExtension))
        #else
            return .linux
        #endif
    }
}
