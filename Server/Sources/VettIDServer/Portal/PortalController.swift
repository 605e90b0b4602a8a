// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import VettIDCrypto

/// The member web portal under `/portal` (docs/portal.md): returns its routes, and runs every request through
/// the same steps — find the signed-in member from the session cookie, for a `POST` read the form (bounded,
/// `application/x-www-form-urlencoded` only) and check its CSRF token, then hand over to the page, and render any
/// failure as a page rather than JSON.
struct PortalController: Sendable {
    /// The largest form body accepted.
    static let maximumFormBytes = 16 * 1024
    /// How long a portal sign-in lasts (the member session behind it may live longer; signing out ends both).
    static let signInLifetime = 12 * 3600

    let pages: PortalPagesController
    let cookies: PortalSessionCookie
    let responder: PortalResponder
    let auth: AuthService
    let clock: any WallClock

    /// - Parameters:
    ///   - auth: Member registration, sign-in and sessions.
    ///   - lifecycle: The vault's status, deployment and devices.
    ///   - nats: The member's NATS account and tokens.
    ///   - invitations: Device invitations.
    ///   - securityEvents: The member's security events.
    ///   - keys: The master key the portal's cookie, CSRF and invitation-reference keys are derived from.
    ///   - origin: Where browsers reach this server (cookie flags, invitation links).
    ///   - passwordPolicy: The password rules the registration page states.
    ///   - clock: The time cookies expire by.
    init(
        auth: AuthService, lifecycle: VaultLifecycleService, nats: NATSCredentialService,
        invitations: InvitationService, securityEvents: SecurityEventRepository, keys: ServerKeys,
        origin: PublicOrigin, passwordPolicy: PasswordPolicy, clock: any WallClock
    ) {
        let csrf = PortalCSRF(key: keys.derivedKey(purpose: "portal-csrf"))
        let secure = Self.needsSecureCookies(origin: origin.url)
        cookies = PortalSessionCookie(key: keys.derivedKey(purpose: "portal-session"), secure: secure)
        responder = PortalResponder(csrf: csrf)
        self.auth = auth
        self.clock = clock
        pages = PortalPagesController(
            auth: auth, lifecycle: lifecycle, nats: nats, invitations: invitations, securityEvents: securityEvents,
            origin: origin, passwordPolicy: passwordPolicy, clock: clock, responder: responder, cookies: cookies,
            csrf: csrf, signInLifetime: Self.signInLifetime,
            references: PortalInvitationReference(key: keys.derivedKey(purpose: "portal-invitation-ref")),
            knownBrowsers: PortalSessionCookie(key: keys.derivedKey(purpose: "portal-known-browser"), secure: secure))
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

    /// The portal's routes: its stylesheet and pages.
    func routes() -> RouteCollection<AppRequestContext> {
        let router = RouteCollection(context: AppRequestContext.self)
        router.get(.init(PortalStylesheet.path)) { _, _ in responder.stylesheet() }
        get("/portal", signedIn: true) { try await pages.dashboard($0) }
        get("/portal/register", signedIn: false) { pages.register($0) }
        post("/portal/register", signedIn: false) { try await pages.submitRegistration($0) }
        get("/portal/sign-in", signedIn: false) { pages.signIn($0) }
        post("/portal/sign-in", signedIn: false) { try await pages.submitSignIn($0) }
        post("/portal/sign-out", signedIn: true) { try await pages.signOut($0) }
        post("/portal/vault/deploy", signedIn: true) { try await pages.deploy($0) }
        get("/portal/devices", signedIn: true) { try await pages.devices($0) }
        post("/portal/devices/revoke", signedIn: true) { try await pages.revokeDevice($0) }
        get("/portal/invitations", signedIn: true) { try await pages.invitations($0) }
        post("/portal/invitations", signedIn: true) { try await pages.createInvitation($0) }
        post("/portal/invitations/show", signedIn: true) { try await pages.showInvitation($0) }
        post("/portal/invitations/revoke", signedIn: true) { try await pages.revokeInvitation($0) }
        get("/portal/messaging", signedIn: true) { try await pages.messaging($0) }
        post("/portal/messaging/revoke", signedIn: true) { try await pages.revokeToken($0) }
        get("/portal/security", signedIn: true) { try await pages.security($0) }

        return router

        func get(_ path: String, signedIn: Bool, _ page: @escaping @Sendable (PortalVisit) async throws -> Response) {
            router.get(.init(path)) { request, _ in await serve(request, isPost: false, signedIn: signedIn, page) }
        }
        func post(_ path: String, signedIn: Bool, _ page: @escaping @Sendable (PortalVisit) async throws -> Response) {
            router.post(.init(path)) { request, _ in await serve(request, isPost: true, signedIn: signedIn, page) }
        }
    }

    /// The steps every portal request goes through; see the type's documentation.
    func serve(
        _ request: Request, isPost: Bool, signedIn required: Bool,
        _ page: @Sendable (PortalVisit) async throws -> Response
    ) async -> Response {
        guard let info = RequestInfo.current else {
            return Response(status: .internalServerError)
        }
        let now = clock.now()
        var member: AuthService.Authenticated?
        var setCookies: [String] = []
        // One cookie of each name or none: a second one was planted (another path or domain) and neither is trusted.
        let sessionCookies = info.cookies(cookies.name)
        if sessionCookies.count == 1, let contents = cookies.open(sessionCookies[0], now: now) {
            do {
                member = try await auth.authenticate(sessionID: contents.id)
            } catch let failure as APIFailure where failure.code == .invalidToken {
                setCookies.append(cookies.setting(cookies.name, "", maxAge: 0))  // the session ended
            } catch {
                // The store is unreachable: say so, rather than pretend the member signed out (and lose a form).
                info.logger.warning("portal session lookup failed", metadata: ["error_type": "\(type(of: error))"])
                let visit = PortalVisit(info: info, query: [:], member: nil, anonymousCSRF: "", cookies: [])
                return responder.error(
                    visit, status: .serviceUnavailable, title: "The portal is busy",
                    message: "The service could not be reached. Nothing was changed. Try again in a moment.")
            }
        } else if !sessionCookies.isEmpty {
            setCookies.append(cookies.setting(cookies.name, "", maxAge: 0))
        }
        let csrfCookies = info.cookies(cookies.csrfName)
        var anonymous = csrfCookies.count == 1 ? csrfCookies[0] : ""
        if member == nil, anonymous.utf8.count != 43 || Base64URL.decode(anonymous) == nil {
            anonymous = Base64URL.encode(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) })
            setCookies.append(cookies.setting(cookies.csrfName, anonymous, maxAge: Self.signInLifetime))
        }
        var visit = PortalVisit(
            info: info, query: Self.query(info.head.path), member: member, anonymousCSRF: anonymous, cookies: setCookies
        )
        if required, member == nil { return responder.redirect("/portal/sign-in", visit) }
        if !required, member != nil, !isPost { return responder.redirect("/portal", visit) }
        if isPost {
            switch await readForm(request, info: info) {
            case .success(let form): visit.form = form
            case .failure(let refusal): return refusal.response(responder, visit)
            }
            guard responder.csrf.isValid(visit.form["csrf"], for: visit.binding) else {
                info.logger.notice("portal form refused: CSRF token missing or wrong")
                return responder.error(
                    visit, status: .forbidden, title: "This form has expired",
                    message:
                        "The form was open too long, or it did not come from this site. Go back, reload the page and try again."
                )
            }
        }
        do {
            return try await page(visit)
        } catch let failure as APIFailure {
            return responder.error(
                visit, status: failure.status, title: "That did not work", message: PortalWords.describe(failure)
            ).retrying(after: failure)
        } catch {
            info.logger.error("portal page failed", metadata: ["error_type": "\(type(of: error))"])
            return responder.error(
                visit, status: .internalServerError, title: "Something went wrong",
                message: "The server could not finish this. Nothing was changed that you did not see. Try again.")
        }
    }

    /// Why a form was not read.
    struct FormRefusal: Error {
        let status: HTTPResponse.Status
        let message: String

        func response(_ responder: PortalResponder, _ visit: PortalVisit) -> Response {
            responder.error(visit, status: status, title: "The form could not be read", message: message)
        }
    }

    private func readForm(_ request: Request, info: RequestInfo) async -> Result<PortalForm, FormRefusal> {
        guard request.headers.mediaType == "application/x-www-form-urlencoded" else {
            return .failure(.init(status: .unsupportedMediaType, message: "Send the form from the portal's page."))
        }
        do {
            let buffer = try await request.body.collect(upTo: Self.maximumFormBytes)
            return .success(try PortalForm(parsing: buffer.readableBytesView))
        } catch let malformed as PortalForm.Malformed {
            return .failure(
                .init(status: .badRequest, message: "The form was damaged on its way (\(malformed.reason))."))
        } catch let error as HTTPError where error.status == .contentTooLarge {
            return .failure(.init(status: .contentTooLarge, message: "The form is larger than the portal accepts."))
        } catch is NIOTooManyBytesError {
            return .failure(.init(status: .contentTooLarge, message: "The form is larger than the portal accepts."))
        } catch {
            return .failure(.init(status: .badRequest, message: "The form did not arrive whole. Try again."))
        }
    }

    /// The query of `path` (only `done` is ever read, and only as a key into fixed texts).
    static func query(_ path: String?) -> [String: String] {
        guard let path, let mark = path.firstIndex(of: "?") else { return [:] }
        var query: [String: String] = [:]
        for pair in path[path.index(after: mark)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { query[String(parts[0])] = String(parts[1]) }
        }
        return query
    }
}
