// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Shim of DeviceCheck's App Attest service (type-checking only; every body traps).

public import Foundation

/// https://developer.apple.com/documentation/devicecheck/dcappattestservice
@available(iOS 14.0, macOS 11.0, *)
public final class DCAppAttestService {
    /// https://developer.apple.com/documentation/devicecheck/dcappattestservice/shared
    public static var shared: DCAppAttestService { fatalError("shim") }
    /// https://developer.apple.com/documentation/devicecheck/dcappattestservice/issupported
    public var isSupported: Bool { fatalError("shim") }
    /// https://developer.apple.com/documentation/devicecheck/dcappattestservice/generatekey(completionhandler:)
    /// (its async form).
    public func generateKey() async throws -> String { fatalError("shim") }
    /// https://developer.apple.com/documentation/devicecheck/dcappattestservice/attestkey(_:clientdatahash:completionhandler:)
    public func attestKey(_ keyId: String, clientDataHash: Data) async throws -> Data { fatalError("shim") }
    /// https://developer.apple.com/documentation/devicecheck/dcappattestservice/generateassertion(_:clientdatahash:completionhandler:)
    public func generateAssertion(_ keyId: String, clientDataHash: Data) async throws -> Data { fatalError("shim") }
}
