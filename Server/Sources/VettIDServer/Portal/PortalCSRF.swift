// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import VettIDCrypto

/// Cross-site request forgery tokens for the portal's forms (synchroniser tokens without server state).
///
/// A token is an HMAC, under a key derived from the server's master key, of what the form is bound to: the member
/// session for a signed-in member, or the random value of the `portal-csrf` cookie before sign-in. Another site
/// can make a browser post a form, but it can read neither the page (so not the token) nor the cookie, so it
/// cannot produce a token that matches. Every instance derives the same key, so a token from one instance is
/// accepted by another. `SameSite=Strict` cookies are a second, independent defence.
struct PortalCSRF: Sendable {
    /// What a form is bound to.
    enum Binding: Sendable, Equatable {
        /// A signed-in member's session.
        case session(UUID)
        /// The value of the pre-session `portal-csrf` cookie.
        case anonymous(String)
    }

    private let key: SymmetricKey

    init(key: SymmetricKey) { self.key = key }

    /// The token for forms bound to `binding`.
    func token(for binding: Binding) -> String {
        Base64URL.encode(Data(HMAC<SHA256>.authenticationCode(for: Data(Self.message(binding).utf8), using: key)))
    }

    /// Whether `presented` is the token for `binding`, compared in constant time.
    func isValid(_ presented: String?, for binding: Binding) -> Bool {
        guard let presented, presented.utf8.count <= 64, let mac = Base64URL.decode(presented) else { return false }
        return HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: Data(Self.message(binding).utf8), using: key)
    }

    private static func message(_ binding: Binding) -> String {
        switch binding {
        case .session(let id): "vettid-portal-csrf|session|" + id.uuidString.lowercased()
        case .anonymous(let value): "vettid-portal-csrf|anonymous|" + value
        }
    }
}
