// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import HTTPTypes
import VettIDCore

/// The headers every portal page carries.
///
/// The Content-Security-Policy allows nothing but the portal's own stylesheet and inline images (the invitation's
/// QR code is a `data:` PNG): no script at all, no frames, forms that post only to this origin. Pages are never
/// cached (they show tokens, codes and device lists) and never framed.
///
/// The pages that run a passkey ceremony (sign-in, Passkeys) also allow scripts from this origin, which serves
/// exactly one (``PortalPasskeyScript``), and `fetch` to this origin (the ceremony's options); still no inline
/// script, no event-handler attributes, no `eval`, and Trusted Types with no policy, so no script can put text
/// into markup (`innerHTML` and its kind throw).
enum PortalSecurityHeaders {
    static let contentSecurityPolicy =
        "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; "
        + "base-uri 'none'"

    /// The policy of a page that loads ``PortalPasskeyScript``.
    static let scriptContentSecurityPolicy =
        contentSecurityPolicy
        + "; script-src 'self'; connect-src 'self'; require-trusted-types-for 'script'; trusted-types 'none'"

    /// `X-Content-Type-Options`, on pages and the stylesheet.
    static let contentTypeOptions = HTTPField.Name("X-Content-Type-Options")!

    /// The fields for an HTML page.
    static var page: HTTPFields { page(script: false) }

    /// The fields for an HTML page; with `script`, one that loads ``PortalPasskeyScript``.
    static func page(script: Bool) -> HTTPFields {
        [
            .contentType: "text/html; charset=utf-8",
            .contentSecurityPolicy: script ? scriptContentSecurityPolicy : contentSecurityPolicy,
            HTTPField.Name("X-Frame-Options")!: "DENY",
            HTTPField.Name("Referrer-Policy")!: "no-referrer",
            contentTypeOptions: "nosniff",
            .cacheControl: "no-store",
        ]
    }
}
