// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
public import HTTPTypes
public import VettIDCore
import VettIDCrypto

/// A ``DPoPProofProvider`` signing with the device key of a ``DeviceKeyStore`` and adding the newest nonce of the
/// request's origin from a ``DPoPNonceStore``.
///
/// Proofs carry `htm`, `htu` (the URL without query and fragment), `iat`, a random `jti`, `ath` whenever an access
/// token goes with the request, and `nonce` once the origin has sent one.
public struct DeviceDPoPProofProvider: DPoPProofProvider {
    /// Where the device key comes from.
    public let keyStore: any DeviceKeyStore
    /// Where the nonces come from (share it with the ``DPoPNonceMiddleware`` that records them).
    public let nonceStore: DPoPNonceStore
    private let clock: any WallClock

    /// Creates a provider.
    /// - Parameters:
    ///   - keyStore: The device key.
    ///   - nonceStore: The per-origin nonces.
    ///   - clock: The clock for `iat`.
    public init(
        keyStore: any DeviceKeyStore, nonceStore: DPoPNonceStore = DPoPNonceStore(),
        clock: any WallClock = SystemWallClock()
    ) {
        self.keyStore = keyStore
        self.nonceStore = nonceStore
        self.clock = clock
    }

    /// Signs a proof for one request.
    public func proof(method: HTTPRequest.Method, url: URL, accessToken: String?) async throws -> String {
        let key = try await keyStore.deviceKey()
        let nonce = await nonceStore.nonce(for: url)
        let builder = DPoPProofBuilder(signer: key.signer, clock: clock)
        return try await builder.proof(method: method.rawValue, url: url, accessToken: accessToken, nonce: nonce)
    }
}
