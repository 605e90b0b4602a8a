// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Shim of CryptoKit's Secure Enclave API (type-checking only; every body traps). The rest of CryptoKit is
// swift-crypto's `Crypto`, which has the same API.

@_exported import Crypto
public import Foundation
public import Security

/// https://developer.apple.com/documentation/cryptokit/secureenclave
public enum SecureEnclave {
    /// https://developer.apple.com/documentation/cryptokit/secureenclave/isavailable
    public static var isAvailable: Bool { fatalError("shim") }

    public enum P256 {
        public enum Signing {
            /// https://developer.apple.com/documentation/cryptokit/secureenclave/p256/signing/privatekey
            /// (not `Sendable`: the page lists no such conformance, so the SDK must not rely on one).
            public struct PrivateKey {
                /// https://developer.apple.com/documentation/cryptokit/secureenclave/p256/signing/privatekey/init(compactrepresentable:accesscontrol:authenticationcontext:)
                /// (the `LAContext` parameter is left out: the SDK never passes one).
                public init(compactRepresentable: Bool = true, accessControl: SecAccessControl) throws {
                    fatalError("shim")
                }
                /// https://developer.apple.com/documentation/cryptokit/secureenclave/p256/signing/privatekey/init(datarepresentation:authenticationcontext:)
                public init(dataRepresentation: Data) throws { fatalError("shim") }
                /// https://developer.apple.com/documentation/cryptokit/secureenclave/p256/signing/privatekey/datarepresentation
                public var dataRepresentation: Data { fatalError("shim") }
                /// https://developer.apple.com/documentation/cryptokit/secureenclave/p256/signing/privatekey/publickey
                public var publicKey: Crypto.P256.Signing.PublicKey { fatalError("shim") }
                /// https://developer.apple.com/documentation/cryptokit/secureenclave/p256/signing/privatekey/signature(for:)-76j0u
                public func signature<D: DataProtocol>(for data: D) throws -> Crypto.P256.Signing.ECDSASignature {
                    fatalError("shim")
                }
            }
        }
    }
}
