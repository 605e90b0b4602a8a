// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

#if canImport(DeviceCheck)
    // Written for Apple platforms. Type-checked on Linux against Tests/AppleAPIShims (scripts/check-apple-only, in
    // the test command); never run on a device by this project: test it on one before relying on it (docs/sdk.md).

    import DeviceCheck
    public import Foundation

    /// ``AppAttestService`` over `DCAppAttestService.shared`.
    @available(iOS 14.0, macOS 11.0, *)
    public struct DeviceCheckAppAttestService: AppAttestService {
        /// Uses the shared App Attest service.
        public init() {}

        /// Whether App Attest works on this device (false in the simulator).
        public var isSupported: Bool { DCAppAttestService.shared.isSupported }

        /// `DCAppAttestService.generateKey()`.
        public func generateKey() async throws -> String {
            try await DCAppAttestService.shared.generateKey()
        }

        /// `DCAppAttestService.attestKey(_:clientDataHash:)`.
        public func attestKey(_ keyID: String, clientDataHash: Data) async throws -> Data {
            try await DCAppAttestService.shared.attestKey(keyID, clientDataHash: clientDataHash)
        }

        /// `DCAppAttestService.generateAssertion(_:clientDataHash:)`.
        public func generateAssertion(_ keyID: String, clientDataHash: Data) async throws -> Data {
            try await DCAppAttestService.shared.generateAssertion(keyID, clientDataHash: clientDataHash)
        }
    }
#endif
