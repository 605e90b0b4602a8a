public import Crypto
import VettIDCrypto

// Stateless DPoP nonces: an HMAC over a time window under a server key.

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Issues and validates DPoP nonces without storing them.
///
/// A nonce is `base64url(u64be(window) ‖ HMAC-SHA256(key, "vettid-dpop-nonce/v1" ‖ u64be(window)))`
/// where `window = floor(unixTime / windowSeconds)`. Every server instance configured with the same key
/// issues the same nonce in a window and accepts the others' nonces. A nonce is accepted during its own
/// window and the next one, so its lifetime is between one and two windows; older ones are ``DPoPNonceVerdict/stale``.
public struct DPoPNonceIssuer: DPoPNonceValidator, CustomStringConvertible {
    private static let label = Array("vettid-dpop-nonce/v1".utf8)
    private let key: SymmetricKey
    /// The window length in seconds (at least 1).
    public let windowSeconds: Int64

    /// Creates an issuer.
    /// - Parameters:
    ///   - key: the server's nonce key, shared by all instances (at least 32 random bytes). Never log it.
    ///   - window: the window length; defaults to 5 minutes.
    public init(key: SymmetricKey, window: Duration = .seconds(300)) {
        self.key = key
        self.windowSeconds = max(1, window.components.seconds)
    }

    /// The nonce to hand out at `now` (the `DPoP-Nonce` response header value).
    public func issue(now: Date = Date()) -> String {
        encode(window: window(at: now))
    }

    /// Accepts the current and the previous window's nonce; a correctly authenticated older one is stale.
    public func validate(nonce: String, now: Date) -> DPoPNonceVerdict {
        guard let bytes = Base64URL.decode(nonce), bytes.count == 8 + 32 else { return .invalid }
        let window = bytes[0..<8].reduce(Int64(0)) { $0 << 8 | Int64($1) }
        guard HMAC<SHA256>.isValidAuthenticationCode(bytes[8...], authenticating: message(window: window), using: key)
        else { return .invalid }
        let current = self.window(at: now)
        if window == current || window == current - 1 { return .valid }
        return window < current ? .stale : .invalid
    }

    private func window(at date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 / Double(windowSeconds)).rounded(.down))
    }

    private func message(window: Int64) -> [UInt8] {
        Self.label + (0..<8).map { UInt8(truncatingIfNeeded: window >> (56 - 8 * $0)) }
    }

    private func encode(window: Int64) -> String {
        let windowBytes = (0..<8).map { UInt8(truncatingIfNeeded: window >> (56 - 8 * $0)) }
        let mac = HMAC<SHA256>.authenticationCode(for: message(window: window), using: key)
        return Base64URL.encode(windowBytes + Array(mac))
    }

    /// Hides the key.
    public var description: String { "DPoPNonceIssuer(window: \(windowSeconds)s)" }
}
