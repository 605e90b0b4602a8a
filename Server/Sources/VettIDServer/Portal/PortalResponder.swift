// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

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

    func page(_ template: String, _ model: Any, _ visit: PortalVisit, status: HTTPResponse.Status = .ok) -> Response {
        var headers = PortalSecurityHeaders.page
        for cookie in visit.cookies { headers.append(HTTPField(name: .setCookie, value: cookie)) }
        let html = PortalTemplates.render(template, model)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// `303 See Other` to `path` (a portal path, never one taken from the request).
    func redirect(_ path: String, _ visit: PortalVisit) -> Response {
        var headers = PortalSecurityHeaders.page
        headers[.location] = path
        for cookie in visit.cookies { headers.append(HTTPField(name: .setCookie, value: cookie)) }
        return Response(status: .seeOther, headers: headers)
    }

    func layout(_ visit: PortalVisit, _ section: PortalLayout.Section) -> PortalLayout {
        PortalLayout(csrf: csrf.token(for: visit.binding), memberEmail: visit.member?.member.email, section: section)
    }

    func error(_ visit: PortalVisit, status: HTTPResponse.Status, title: String, message: String) -> Response {
        let model = PortalErrorPage(title: title, layout: layout(visit, .none), message: message)
        return page("error", model, visit, status: status)
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
