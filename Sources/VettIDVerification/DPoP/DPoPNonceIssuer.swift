// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

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

    /// The nonces of the last windows asked for: a window's nonce is a pure function of the key and the window, so
    /// it is computed once per window rather than per request, and a nonce that equals the current or the previous
    /// window's is valid without an HMAC.
    private let recent = RecentNonces()

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
        nonce(forWindow: window(at: now))
    }

    /// Accepts the current and the previous window's nonce; a correctly authenticated older one is stale.
    public func validate(nonce: String, now: Date) -> DPoPNonceVerdict {
        let current = window(at: now)
        if nonce == self.nonce(forWindow: current) || nonce == self.nonce(forWindow: current - 1) { return .valid }
        // Not one of the two valid nonces: authenticate it to tell a stale nonce of ours from anything else.
        guard let bytes = Base64URL.decode(nonce), bytes.count == 8 + 32 else { return .invalid }
        let window = bytes[0..<8].reduce(Int64(0)) { $0 << 8 | Int64($1) }
        guard HMAC<SHA256>.isValidAuthenticationCode(bytes[8...], authenticating: message(window: window), using: key)
        else { return .invalid }
        if window == current || window == current - 1 { return .valid }
        return window < current ? .stale : .invalid
    }

    private func window(at date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 / Double(windowSeconds)).rounded(.down))
    }

    private func message(window: Int64) -> [UInt8] {
        Self.label + (0..<8).map { UInt8(truncatingIfNeeded: window >> (56 - 8 * $0)) }
    }

    private func nonce(forWindow window: Int64) -> String {
        if let known = recent.nonce(forWindow: window) { return known }
        let nonce = encode(window: window)
        recent.remember(nonce, forWindow: window)
        return nonce
    }

    private func encode(window: Int64) -> String {
        let windowBytes = (0..<8).map { UInt8(truncatingIfNeeded: window >> (56 - 8 * $0)) }
        let mac = HMAC<SHA256>.authenticationCode(for: message(window: window), using: key)
        return Base64URL.encode(windowBytes + Array(mac))
    }

    /// Hides the key.
    public var description: String { "DPoPNonceIssuer(window: \(windowSeconds)s)" }
}

/// The nonces of the most recent windows (at most four), behind a lock.
final class RecentNonces: Sendable {
    private let entries = LockedValue<[(window: Int64, nonce: String)]>([])

    func nonce(forWindow window: Int64) -> String? {
        entries.withLock { entries in entries.first { $0.window == window }?.nonce }
    }

    func remember(_ nonce: String, forWindow window: Int64) {
        entries.withLock { entries in
            guard !entries.contains(where: { $0.window == window }) else { return }
            if entries.count >= 4 { entries.removeFirst() }
            entries.append((window, nonce))
        }
    }
}
