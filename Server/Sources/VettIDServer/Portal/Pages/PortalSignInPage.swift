// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Hummingbird
import VettIDAPI
import VettIDAttestation
import VettIDCore

/// `GET /portal/sign-in`, `POST /portal/sign-in` and `POST /portal/sign-out`: signing in through the same
/// ``AuthService/login(email:password:dpopJKT:origin:sessionLifetime:knownClientOf:logger:)`` as the API (so the
/// same rate limits, lockout and security events), then the portal's cookies; signing out ends the member session.
///
/// With a passkey (``PortalPasskeyScript``): `POST /portal/passkeys/sign-in/options` answers the options of a
/// discoverable sign-in (the browser's autofill offers the passkeys, or the button asks for one), and
/// `POST /portal/passkeys/sign-in` takes the result through ``PasskeyService/signIn(_:dpopJKT:origin:sessionLifetime:logger:)``
/// and sets the same cookies as a password.
struct PortalSignInPage: Sendable {
    struct Content: PortalPageContent {
        var email = ""
        /// The email field's `autocomplete` (the `email-field` partial of ``PortalLayout``): `webauthn` lets the
        /// browser offer passkeys there (a conditional-mediation request of ``PortalPasskeyScript``).
        let emailAutocomplete = "username webauthn"
        var errors = PortalFormErrors()

        static let usesPasskeyScript = true

        static let template = PortalTemplate(
            name: "sign-in",
            source: #"""
                {{> head}}
                <form method="post" action="/portal/sign-in" class="card" novalidate>
                <input type="hidden" name="csrf" value="{{layout.csrf}}">
                {{> email-field}}
                <div class="field">
                <label for="password">Password</label>
                <input id="password" name="password" type="password" autocomplete="current-password" required{{#errors.password}} aria-invalid="true" aria-describedby="password-error"{{/errors.password}}>
                {{#errors.password}}<p class="field-error" id="password-error">{{errors.password}}</p>{{/errors.password}}
                </div>
                <button type="submit">Sign in</button>
                </form>
                <section id="passkey-sign-in" class="card" aria-labelledby="passkey-sign-in-heading" hidden>
                <h2 id="passkey-sign-in-heading">Or use a passkey</h2>
                <form id="passkey-sign-in-form" method="post" action="/portal/passkeys/sign-in">
                <input type="hidden" name="csrf" value="{{layout.csrf}}">
                <input type="hidden" name="credential" value="">
                <button type="button" id="passkey-sign-in-button">Sign in with a passkey</button>
                </form>
                </section>
                <p id="passkey-status" class="passkey-status" role="status" aria-live="polite"></p>
                <p>New to VettID? <a href="/portal/register">Create an account</a>.</p>
                {{> foot}}
                """#)
    }

    static let title = "Sign in"
    /// How long a browser stays known after a sign-in.
    static let knownBrowserLifetime = 180 * 86_400

    let auth: AuthService
    let passkeys: PasskeyService
    /// Sets the sign-in and pre-session CSRF cookies.
    let cookies: PortalSessionCookie
    /// Signs and opens the known-browser cookie (``PortalSessionCookie/knownBrowserName``).
    let knownBrowsers: PortalSessionCookie
    let clock: any WallClock
    let responder: PortalResponder

    func show(_ context: PortalRequestContext) -> Response {
        let visit = context.visit
        let page = responder.makePage(visit, title: Self.title, content: Content())
        return responder.page(page, visit)
    }

    func submit(_ context: PortalRequestContext) async throws -> Response {
        let visit = context.visit
        var page = PortalPage(
            title: Self.title, layout: responder.layout(visit),
            content: Content(email: PortalText.displayable(visit.form["email"] ?? "")))
        let lifetime = PortalController.signInLifetime
        do {
            let issued = try await auth.login(
                email: (visit.form["email"] ?? "").trimmingCharacters(in: .whitespaces),
                password: visit.form["password"] ?? "",
                dpopJKT: nil, origin: visit.origin, sessionLifetime: .seconds(lifetime),
                knownClientOf: knownMember(visit), logger: visit.info.logger)
            return signedIn(issued, visit)
        } catch let failure as APIFailure {
            if failure.code == .invalidCredentials {
                page.content.errors[.password] = PortalWords.describe(failure)
                page.formError = PortalWords.fieldSummary
            } else {
                page.formError = PortalWords.describe(failure)
            }
            return responder.page(page, visit, status: failure.status).retrying(after: failure)
        }
    }

    /// `POST /portal/passkeys/sign-in/options`: the options of a passkey sign-in, as WebAuthn's
    /// `PublicKeyCredentialRequestOptionsJSON`: discoverable, or with `email` the passkeys of that account (the same
    /// answer, made up, for an email without an account or without passkeys).
    func passkeyOptions(_ context: PortalRequestContext) async throws -> Response {
        let email = context.visit.form.trimmed("email").flatMap { $0.utf8.count <= 320 ? $0 : nil }
        let options = try await passkeys.signInOptions(email: email, origin: context.visit.origin)
        return try responder.json(Components.Schemas.PasskeyRequestOptions(options))
    }

    /// `POST /portal/passkeys/sign-in`: `credential` is WebAuthn's `AuthenticationResponseJSON`; a sign-in opens
    /// the same session, with the same cookies, as a password's.
    func submitPasskey(_ context: PortalRequestContext) async throws -> Response {
        let visit = context.visit
        do {
            guard let text = visit.form["credential"], !text.isEmpty,
                let json = try? JSONDecoder().decode(
                    Components.Schemas.PasskeyAuthenticationResponseJSON.self, from: Data(text.utf8))
            else { throw APIFailure(.badRequest, .invalidRequest, "the browser sent no passkey answer") }
            let issued = try await passkeys.signIn(
                try PasskeyAssertionResponse(json), dpopJKT: nil, origin: visit.origin,
                sessionLifetime: .seconds(PortalController.signInLifetime), logger: visit.info.logger)
            return signedIn(issued, visit)
        } catch let failure as APIFailure {
            let page = PortalPage(
                title: Self.title, layout: responder.layout(visit), formError: PortalWords.describe(failure),
                content: Content())
            return responder.page(page, visit, status: failure.status).retrying(after: failure)
        }
    }

    /// The portal's cookies for a sign-in, and the dashboard.
    private func signedIn(_ issued: AuthService.Issued, _ visit: PortalVisit) -> Response {
        var visit = visit
        let lifetime = PortalController.signInLifetime
        let expiresAt = clock.now().addingTimeInterval(TimeInterval(lifetime))
        visit.cookies.append(
            cookies.setting(cookies.name, cookies.value(id: issued.session.id, expiresAt: expiresAt), maxAge: lifetime))
        visit.cookies.append(cookies.setting(cookies.csrfName, "", maxAge: 0))
        let knownUntil = clock.now().addingTimeInterval(TimeInterval(Self.knownBrowserLifetime))
        visit.cookies.append(
            cookies.setting(
                cookies.knownBrowserName, knownBrowsers.value(id: issued.member.id, expiresAt: knownUntil),
                maxAge: Self.knownBrowserLifetime))
        return responder.redirect("/portal", visit)
    }

    /// Ends the member session behind the portal sign-in, and the cookie that named it.
    func signOut(_ context: MemberPortalContext) async throws -> Response {
        var visit = context.visit
        try await auth.logout(context.member, origin: visit.origin, logger: visit.info.logger)
        visit.cookies.append(cookies.setting(cookies.name, "", maxAge: 0))
        return responder.redirect("/portal/sign-in?done=signed-out", visit)
    }

    /// The member this browser signed in as before, from an authentic, unexpired known-browser cookie (exactly one).
    private func knownMember(_ visit: PortalVisit) -> UUID? {
        let values = visit.info.cookies(cookies.knownBrowserName)
        guard values.count == 1 else { return nil }
        return knownBrowsers.open(values[0], now: clock.now())?.id
    }
}
