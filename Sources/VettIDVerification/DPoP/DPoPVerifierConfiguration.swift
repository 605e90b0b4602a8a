// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import VettIDCrypto

// Settings of a DPoP verifier.

extension DPoPVerifier {
    /// The immutable settings of a ``DPoPVerifier``.
    public struct Configuration: Sendable {
        /// The largest accepted `DPoP` header value, in bytes.
        public var maxProofBytes: Int
        /// The accepted `alg` values. Only `ES256` is implemented; other names never verify.
        public var allowedAlgorithms: [String]
        /// How old `iat` may be.
        public var maxAge: Duration
        /// How far in the future `iat` may be (clock skew).
        public var maxFutureSkew: Duration
        /// Whether every proof must carry a valid server nonce. Requires a nonce validator.
        public var requireNonce: Bool
        /// The longest accepted `jti`, in bytes.
        public var maxJTIBytes: Int

        /// Creates a configuration.
        /// - Parameters:
        ///   - maxProofBytes: defaults to 4096.
        ///   - allowedAlgorithms: defaults to `["ES256"]`.
        ///   - maxAge: defaults to 60 seconds.
        ///   - maxFutureSkew: defaults to 5 seconds.
        ///   - requireNonce: defaults to `false`.
        ///   - maxJTIBytes: defaults to 128.
        public init(
            maxProofBytes: Int = 4096,
            allowedAlgorithms: [String] = ["ES256"],
            maxAge: Duration = .seconds(60),
            maxFutureSkew: Duration = .seconds(5),
            requireNonce: Bool = false,
            maxJTIBytes: Int = 128
        ) {
            self.maxProofBytes = maxProofBytes
            self.allowedAlgorithms = allowedAlgorithms
            self.maxAge = maxAge
            self.maxFutureSkew = maxFutureSkew
            self.requireNonce = requireNonce
            self.maxJTIBytes = maxJTIBytes
        }
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var secondsValue: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
