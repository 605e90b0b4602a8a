// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Hummingbird
import Logging
import VettIDCore
import VettIDCrypto

/// The first step of every portal request: finds the signed-in member from the session cookie, makes sure a browser
/// that is not signed in has a pre-session CSRF cookie, and puts both in the context's ``PortalVisit``. It also
/// renders whatever the steps after it throw as a page rather than JSON: a ``PortalRedirect`` as a redirect, an
/// ``APIFailure`` as the error page with its status (and `Retry-After`), anything else as a 500 page.
struct PortalSessionMiddleware: RouterMiddleware {
    typealias Context = PortalRequestContext

    let auth: AuthService
    let cookies: PortalSessionCookie
    let responder: PortalResponder
    let clock: any WallClock

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let info = context.visit.info
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
                let visit = PortalVisit(info: info, query: [:], member: nil, anonymousCSRF: "")
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
            setCookies.append(cookies.setting(cookies.csrfName, anonymous, maxAge: PortalController.signInLifetime))
        }
        var context = context
        context.visit = PortalVisit(
            info: info, query: context.visit.query, member: member, anonymousCSRF: anonymous, cookies: setCookies)
        let visit = context.visit
        do {
            return try await next(request, context)
        } catch let redirect as PortalRedirect {
            return responder.redirect(redirect.path, visit)
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
}
