// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Hummingbird
import VettIDCore

/// The member web portal (docs/portal.md): the stylesheet, and the `/portal` router group of its pages.
///
/// Every page request goes through the same steps, each a middleware or a request context:
/// 1. ``PortalRequestContext`` (the group's context) starts the ``PortalVisit``;
/// 2. ``PortalSessionMiddleware`` finds the signed-in member from the session cookie, and renders whatever the
///    later steps throw as a page rather than JSON;
/// 3. pages for members only run in a ``MemberPortalContext``, which carries the member typed and cannot be made
///    without one (the request is redirected to the sign-in page); pages for visitors pass
///    ``PortalVisitorMiddleware``, which sends a signed-in member to the dashboard;
/// 4. ``PortalCSRFMiddleware`` reads a `POST`'s form and checks its CSRF token;
/// 5. the page (one file each, `Portal/Pages`) reads what it shows from the same services the API uses, and
///    answers a successful `POST` with a redirect.
struct PortalController: Sendable {
    /// How long a portal sign-in lasts (the member session behind it may live longer; signing out ends both).
    static let signInLifetime = 12 * 3600

    let session: PortalSessionMiddleware
    let responder: PortalResponder
    let registration: PortalRegistrationPage
    let signIn: PortalSignInPage
    let dashboard: PortalDashboardPage
    let devices: PortalDevicesPage
    let invitations: PortalInvitationsPage
    let invitation: PortalInvitationPage
    let messaging: PortalMessagingPage
    let passkeys: PortalPasskeysPage
    let security: PortalSecurityPage

    /// - Parameters:
    ///   - auth: Member registration, sign-in and sessions.
    ///   - passkeys: Members' passkeys: adding, signing in, renaming, removing.
    ///   - lifecycle: The vault's status, deployment and devices.
    ///   - nats: The member's NATS account and tokens.
    ///   - invitations: Device invitations.
    ///   - securityEvents: The member's security events.
    ///   - accessLog: The member's vault access log.
    ///   - keys: The master key the portal's cookie, CSRF and invitation-reference keys are derived from.
    ///   - origin: Where browsers reach this server (cookie flags, invitation links).
    ///   - passwordPolicy: The password rules the registration page states.
    ///   - clock: The time cookies and invitations expire by.
    init(
        auth: AuthService, passkeys: PasskeyService, lifecycle: VaultLifecycleService, nats: NATSCredentialService,
        invitations: InvitationService, securityEvents: SecurityEventRepository, accessLog: VaultAccessLogRepository,
        keys: ServerKeys,
        origin: PublicOrigin, passwordPolicy: PasswordPolicy, clock: any WallClock
    ) {
        let secure = Self.needsSecureCookies(origin: origin.url)
        let cookies = PortalSessionCookie(key: keys.derivedKey(purpose: "portal-session"), secure: secure)
        let responder = PortalResponder(csrf: PortalCSRF(key: keys.derivedKey(purpose: "portal-csrf")))
        let references = PortalInvitationReference(key: keys.derivedKey(purpose: "portal-invitation-ref"))
        self.responder = responder
        session = PortalSessionMiddleware(auth: auth, cookies: cookies, responder: responder, clock: clock)
        registration = PortalRegistrationPage(auth: auth, passwordPolicy: passwordPolicy, responder: responder)
        signIn = PortalSignInPage(
            auth: auth, passkeys: passkeys, cookies: cookies,
            knownBrowsers: PortalSessionCookie(key: keys.derivedKey(purpose: "portal-known-browser"), secure: secure),
            clock: clock, responder: responder)
        dashboard = PortalDashboardPage(lifecycle: lifecycle, responder: responder)
        devices = PortalDevicesPage(lifecycle: lifecycle, responder: responder)
        invitation = PortalInvitationPage(
            invitations: invitations, references: references, origin: origin, clock: clock, responder: responder)
        self.invitations = PortalInvitationsPage(
            invitations: invitations, references: references, clock: clock, invitation: invitation,
            responder: responder)
        messaging = PortalMessagingPage(nats: nats, responder: responder)
        self.passkeys = PortalPasskeysPage(passkeys: passkeys, responder: responder)
        security = PortalSecurityPage(
            securityEvents: securityEvents, accessLog: accessLog, lifecycle: lifecycle, responder: responder)
    }

    /// `Secure` cookies everywhere except plain HTTP on a loopback address (where browsers would drop them).
    static func needsSecureCookies(origin: String) -> Bool {
        guard let url = URL(string: origin), url.scheme == "http", let host = url.host else { return true }
        return !(host == "localhost" || host == "::1" || host == "[::1]" || isIPv4Loopback(host))
    }

    /// `127.x.y.z` written as four decimal octets (not a name that merely starts with `127.`).
    static func isIPv4Loopback(_ host: String) -> Bool {
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets.first == "127"
            && octets.allSatisfy { $0.count <= 3 && UInt8($0) != nil }
    }

    /// The stylesheet, the passkey script and the `/portal` group.
    func routes() -> RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get(.init(PortalStylesheet.path)) { [responder] _, _ in responder.stylesheet() }
        routes.get(.init(PortalPasskeyScript.path)) { [responder] _, _ in responder.passkeyScript() }
        let portal = routes.group("/portal", context: PortalRequestContext.self).add(middleware: session)
        let members = portal.group(context: MemberPortalContext.self)
            .add(middleware: PortalCSRFMiddleware<MemberPortalContext>(responder: responder))
        let visitors = portal.group()
            .add(middleware: PortalVisitorMiddleware(responder: responder))
            .add(middleware: PortalCSRFMiddleware<PortalRequestContext>(responder: responder))

        members.get("") { _, context in try await dashboard.show(context) }
        visitors.get("register") { _, context in registration.show(context) }
        visitors.post("register") { _, context in try await registration.submit(context) }
        visitors.get("sign-in") { _, context in signIn.show(context) }
        visitors.post("sign-in") { _, context in try await signIn.submit(context) }
        visitors.post("passkeys/sign-in/options") { _, context in try await signIn.passkeyOptions(context) }
        visitors.post("passkeys/sign-in") { _, context in try await signIn.submitPasskey(context) }
        members.post("sign-out") { _, context in try await signIn.signOut(context) }
        members.post("vault/deploy") { _, context in try await dashboard.deploy(context) }
        members.get("devices") { _, context in try await devices.show(context) }
        members.post("devices/revoke") { _, context in try await devices.revoke(context) }
        members.get("invitations") { _, context in try await invitations.show(context) }
        members.post("invitations") { _, context in try await invitations.create(context) }
        members.post("invitations/show") { _, context in try await invitation.show(context) }
        members.post("invitations/revoke") { _, context in try await invitations.revoke(context) }
        members.get("messaging") { _, context in try await messaging.show(context) }
        members.post("messaging/revoke") { _, context in try await messaging.revoke(context) }
        members.get("passkeys") { _, context in try await passkeys.show(context) }
        members.post("passkeys") { _, context in try await passkeys.add(context) }
        members.post("passkeys/options") { _, context in try await passkeys.options(context) }
        members.post("passkeys/rename") { _, context in try await passkeys.rename(context) }
        members.post("passkeys/remove") { _, context in try await passkeys.remove(context) }
        members.get("security") { _, context in try await security.show(context) }
        return routes
    }
}
