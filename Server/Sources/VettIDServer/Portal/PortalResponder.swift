// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import VettIDCore

extension Response {
    /// The answer with the `Retry-After` of a rate-limit `failure`, if it has one.
    func retrying(after failure: APIFailure) -> Response {
        guard let seconds = failure.headers[.retryAfter] else { return self }
        var response = self
        response.headers[.retryAfter] = seconds
        return response
    }
}

/// Builds the portal's answers: HTML pages with the security headers, redirects, and the error page.
struct PortalResponder: Sendable {
    let csrf: PortalCSRF

    /// `page` rendered with its content's template, with the visit's cookies.
    func page<Content>(_ page: PortalPage<Content>, _ visit: PortalVisit, status: HTTPResponse.Status = .ok)
        -> Response
    {
        var headers = PortalSecurityHeaders.page(script: Content.usesPasskeyScript)
        for cookie in visit.cookies { headers.append(HTTPField(name: .setCookie, value: cookie)) }
        let html = PortalTemplates.render(Content.template.name, page)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// `303 See Other` to `path` (a portal path, never one taken from the request).
    func redirect(_ path: String, _ visit: PortalVisit) -> Response {
        var headers = PortalSecurityHeaders.page
        headers[.location] = path
        for cookie in visit.cookies { headers.append(HTTPField(name: .setCookie, value: cookie)) }
        return Response(status: .seeOther, headers: headers)
    }

    /// The layout of a page of `section` for `visit` (its forms' CSRF token, the member's address).
    func layout(_ visit: PortalVisit, _ section: PortalLayout.Section = .none) -> PortalLayout {
        PortalLayout(csrf: csrf.token(for: visit.binding), memberEmail: visit.member?.member.email, section: section)
    }

    /// A page for `visit`: the layout with `section` marked, the notice of a redirect (`?done=…`) and `formError`.
    func makePage<Content: PortalPageContent>(
        _ visit: PortalVisit, title: String, section: PortalLayout.Section = .none, formError: String? = nil,
        content: Content
    ) -> PortalPage<Content> {
        PortalPage(
            title: title, layout: layout(visit, section), notice: PortalWords.notice(visit.query["done"]),
            formError: formError, content: content)
    }

    /// The error page.
    func error(_ visit: PortalVisit, status: HTTPResponse.Status, title: String, message: String) -> Response {
        page(
            PortalPage(title: title, layout: layout(visit), content: PortalErrorPage.Content(message: message)), visit,
            status: status)
    }

    /// A JSON answer for ``PortalPasskeyScript`` (a ceremony's options), never cached.
    func json(_ value: some Encodable) throws -> Response {
        Response(
            status: .ok,
            headers: [
                .contentType: "application/json", .cacheControl: "no-store",
                PortalSecurityHeaders.contentTypeOptions: "nosniff",
                .contentSecurityPolicy: PortalSecurityHeaders.contentSecurityPolicy,
            ],
            body: .init(byteBuffer: ByteBuffer(bytes: try JSONEncoder().encode(value))))
    }

    /// The passkey script, cached for a year: its path changes with its text.
    func passkeyScript() -> Response {
        Response(
            status: .ok,
            headers: [
                .contentType: "text/javascript; charset=utf-8", .cacheControl: "public, max-age=31536000, immutable",
                PortalSecurityHeaders.contentTypeOptions: "nosniff",
            ],
            body: .init(byteBuffer: ByteBuffer(string: PortalPasskeyScript.source)))
    }

    /// The stylesheet.
    func stylesheet() -> Response {
        Response(
            status: .ok,
            headers: [
                .contentType: "text/css; charset=utf-8", .cacheControl: "public, max-age=3600",
                PortalSecurityHeaders.contentTypeOptions: "nosniff",
            ],
            body: .init(byteBuffer: ByteBuffer(string: PortalStylesheet.css)))
    }
}
