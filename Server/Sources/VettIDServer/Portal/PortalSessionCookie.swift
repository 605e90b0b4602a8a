// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import VettIDCore
import VettIDCrypto

/// The portal's sign-in cookie: which member session the browser holds and until when, under an HMAC.
///
/// The value is `base64url(session id ‖ expiry) "." base64url(HMAC-SHA256)`, keyed by a key derived from the master
/// key, so every instance reads every other's cookies and nobody can make one up. It names a session, it is not one:
/// each request still finds the session in the store (through the same short cache as access tokens), so signing
/// out, or any revocation of the session, ends the portal session at once on this instance and within the session
/// cache's lifetime on others. The cookie carries no token that the API would accept.
///
/// Over HTTPS both portal cookies carry the `__Host-` prefix (so `Secure`, `Path=/` and no `Domain`): a sibling
/// subdomain or a network attacker on plain HTTP cannot plant a cookie of that name for the browser to send. Plain
/// HTTP on loopback (development) cannot use the prefix; there the names are bare and scoped to `/portal`.
struct PortalSessionCookie: Sendable {
    /// The sign-in cookie's name.
    var name: String { secure ? "__Host-vettid-portal" : "vettid-portal" }
    /// The cookie that binds forms shown before sign-in (``PortalCSRF``).
    var csrfName: String { secure ? "__Host-portal-csrf" : "portal-csrf" }
    /// The cookie that marks a browser a member has signed in with before (signed under a key of its own): such a
    /// browser's sign-ins are exempt from the account-wide failure ceiling, as the API exempts a known device key.
    var knownBrowserName: String { secure ? "__Host-vettid-browser" : "vettid-browser" }
    private var path: String { secure ? "/" : "/portal" }

    /// A decoded, authentic cookie.
    struct Contents: Sendable, Equatable {
        /// What the cookie names: a member session (the sign-in cookie) or a member (the known-browser cookie).
        let id: UUID
        let expiresAt: Date
    }

    private let key: SymmetricKey
    /// Whether the cookies carry `Secure` (everywhere except plain HTTP on a loopback address).
    let secure: Bool

    init(key: SymmetricKey, secure: Bool) {
        self.key = key
        self.secure = secure
    }

    /// The cookie value naming `id` until `expiresAt`.
    func value(id: UUID, expiresAt: Date) -> String {
        var bytes = withUnsafeBytes(of: id.uuid) { Array($0) }
        withUnsafeBytes(of: Int64(expiresAt.timeIntervalSince1970).bigEndian) { bytes.append(contentsOf: $0) }
        let mac = HMAC<SHA256>.authenticationCode(for: bytes, using: key)
        return Base64URL.encode(bytes) + "." + Base64URL.encode(Data(mac))
    }

    /// The contents of `value` when it is authentic and not expired at `now`.
    func open(_ value: String?, now: Date) -> Contents? {
        guard let value, value.utf8.count <= 128 else { return nil }
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let bytes = Base64URL.decode(parts[0]), bytes.count == 24,
            let mac = Base64URL.decode(parts[1]),
            HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: bytes, using: key)
        else { return nil }
        let uuid = bytes[0..<16].withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) }
        let seconds = bytes[16..<24].reduce(Int64(0)) { $0 << 8 | Int64($1) }
        let expiresAt = Date(timeIntervalSince1970: TimeInterval(seconds))
        guard expiresAt > now else { return nil }
        return Contents(id: UUID(uuid: uuid), expiresAt: expiresAt)
    }

    /// A `Set-Cookie` value storing `value` for `maxAge` seconds (0 deletes the cookie).
    func setting(_ name: String, _ value: String, maxAge: Int) -> String {
        "\(name)=\(value); Max-Age=\(maxAge); Path=\(path); HttpOnly;\(secure ? " Secure;" : "") SameSite=Strict"
    }
}
