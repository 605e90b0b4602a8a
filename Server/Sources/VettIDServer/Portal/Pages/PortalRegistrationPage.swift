// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Hummingbird
import VettIDCore

/// `GET /portal/register` and `POST /portal/register`: a new member account, through the same
/// ``AuthService/register(email:password:name:origin:logger:)`` as the API (so the same password policy, limits and
/// security events); success redirects to the sign-in page.
struct PortalRegistrationPage: Sendable {
    struct Content: PortalPageContent {
        var email = ""
        /// The email field's `autocomplete` (the `email-field` partial of ``PortalLayout``).
        let emailAutocomplete = "email"
        var firstName = ""
        var lastName = ""
        var errors = PortalFormErrors()
        var passwordReasons: [String] = []
        var minimumLength = PasswordPolicy.standard.minimumLength

        static let template = PortalTemplate(
            name: "register",
            source: #"""
                {{> head}}
                <form method="post" action="/portal/register" class="card" novalidate>
                <input type="hidden" name="csrf" value="{{layout.csrf}}">
                {{> email-field}}
                <div class="field">
                <label for="password">Password</label>
                <input id="password" name="password" type="password" autocomplete="new-password" required aria-describedby="password-hint{{#errors.password}} password-error{{/errors.password}}"{{#errors.password}} aria-invalid="true"{{/errors.password}}>
                <p class="hint" id="password-hint">At least {{minimumLength}} characters. A few unrelated words are easy to remember and hard to guess.</p>
                {{#errors.password}}<div class="field-error" id="password-error"><p>{{errors.password}}</p>{{^empty(passwordReasons)}}<ul>{{#passwordReasons}}<li>{{.}}</li>{{/passwordReasons}}</ul>{{/empty(passwordReasons)}}</div>{{/errors.password}}
                </div>
                <div class="field">
                <label for="first_name">First name <span class="optional">(optional)</span></label>
                <input id="first_name" name="first_name" type="text" autocomplete="given-name" value="{{firstName}}"{{#errors.firstName}} aria-invalid="true" aria-describedby="first_name-error"{{/errors.firstName}}>
                {{#errors.firstName}}<p class="field-error" id="first_name-error">{{errors.firstName}}</p>{{/errors.firstName}}
                </div>
                <div class="field">
                <label for="last_name">Last name <span class="optional">(optional)</span></label>
                <input id="last_name" name="last_name" type="text" autocomplete="family-name" value="{{lastName}}"{{#errors.lastName}} aria-invalid="true" aria-describedby="last_name-error"{{/errors.lastName}}>
                {{#errors.lastName}}<p class="field-error" id="last_name-error">{{errors.lastName}}</p>{{/errors.lastName}}
                </div>
                <button type="submit">Create account</button>
                </form>
                <p>Already have an account? <a href="/portal/sign-in">Sign in</a>.</p>
                {{> foot}}
                """#)
    }

    static let title = "Create your account"
    /// What a name field says when its part is refused.
    static let nameRule = "Use at most 100 characters, without control characters."

    let auth: AuthService
    let passwordPolicy: PasswordPolicy
    let responder: PortalResponder

    func show(_ context: PortalRequestContext) -> Response {
        let page = PortalPage(
            title: Self.title, layout: responder.layout(context.visit),
            content: Content(minimumLength: passwordPolicy.minimumLength))
        return responder.page(page, context.visit)
    }

    func submit(_ context: PortalRequestContext) async throws -> Response {
        let visit = context.visit
        let form = visit.form
        var page = PortalPage(
            title: Self.title, layout: responder.layout(visit),
            content: Content(
                email: PortalText.displayable(form["email"] ?? ""),
                firstName: PortalText.displayable(form["first_name"] ?? ""),
                lastName: PortalText.displayable(form["last_name"] ?? ""),
                minimumLength: passwordPolicy.minimumLength))
        do {
            let name = try MemberName(checking: form.trimmed("first_name"), form.trimmed("last_name"))
            _ = try await auth.register(
                email: (form["email"] ?? "").trimmingCharacters(in: .whitespaces), password: form["password"] ?? "",
                name: name, origin: visit.origin, logger: visit.info.logger)
            return responder.redirect("/portal/sign-in?done=registered", visit)
        } catch let refused as MemberName.InvalidPart {
            page.content.errors[refused.part == .first ? .firstName : .lastName] = Self.nameRule
            return refusal(page, refused.failure, visit)
        } catch let failure as APIFailure {
            switch failure.code {
            case .invalidEmail, .emailTaken: page.content.errors[.email] = PortalWords.describe(failure)
            case .weakPassword:
                page.content.errors[.password] = PortalWords.describe(failure)
                page.content.passwordReasons = failure.reasons ?? []
            default: page.formError = PortalWords.describe(failure)
            }
            return refusal(page, failure, visit)
        }
    }

    /// The form again, with what was wrong: the fields' own messages under the summary, or the failure's words.
    private func refusal(_ page: PortalPage<Content>, _ failure: APIFailure, _ visit: PortalVisit) -> Response {
        var page = page
        page.formError = page.formError ?? PortalWords.fieldSummary
        return responder.page(page, visit, status: failure.status).retrying(after: failure)
    }
}
