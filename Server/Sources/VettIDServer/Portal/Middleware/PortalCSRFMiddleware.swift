// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import VettIDCore

/// For a `POST`: reads the form (bounded, `application/x-www-form-urlencoded` only) into the context's
/// ``PortalVisit`` and checks its CSRF token (``PortalCSRF``) against what the visit is bound to; a form that cannot
/// be read or carries no valid token is answered with the error page and never reaches the page. Other methods pass.
struct PortalCSRFMiddleware<Context: PortalContext>: RouterMiddleware {
    /// The largest form body accepted.
    static var maximumFormBytes: Int { 16 * 1024 }

    let responder: PortalResponder

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard request.method == .post else { return try await next(request, context) }
        var context = context
        switch await Self.readForm(request) {
        case .success(let form): context.visit.form = form
        case .failure(let refusal):
            return responder.error(
                context.visit, status: refusal.status, title: "The form could not be read", message: refusal.message)
        }
        guard responder.csrf.isValid(context.visit.form["csrf"], for: context.visit.binding) else {
            context.visit.info.logger.notice("portal form refused: CSRF token missing or wrong")
            return responder.error(
                context.visit, status: .forbidden, title: "This form has expired",
                message:
                    "The form was open too long, or it did not come from this site. Go back, reload the page and try again."
            )
        }
        return try await next(request, context)
    }

    /// Why a form was not read.
    struct FormRefusal: Error {
        let status: HTTPResponse.Status
        let message: String
    }

    private static func readForm(_ request: Request) async -> Result<PortalForm, FormRefusal> {
        guard request.headers.mediaType == "application/x-www-form-urlencoded" else {
            return .failure(.init(status: .unsupportedMediaType, message: "Send the form from the portal's page."))
        }
        do {
            let buffer = try await request.body.collect(upTo: maximumFormBytes)
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
}
