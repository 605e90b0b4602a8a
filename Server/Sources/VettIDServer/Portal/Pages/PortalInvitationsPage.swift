// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Hummingbird
import VettIDCore

/// `GET /portal/invitations`, `POST /portal/invitations` and `POST /portal/invitations/revoke`: the member's
/// pending invitations (named by ``PortalInvitationReference``, never by code), a new one (answered with its
/// ``PortalInvitationPage``), and revoking one, through the API's ``InvitationService``.
struct PortalInvitationsPage: Sendable {
    struct Content: PortalPageContent {
        struct Pending: Sendable {
            /// ``PortalInvitationReference``: never the code itself.
            let reference: String
            let label: String
            let created: PortalTime
            let expires: PortalTime
        }

        struct Lifetime: Sendable {
            let minutes: Int
            let label: String
            let selected: Bool
        }

        var label = ""
        var errors = PortalFormErrors()
        let lifetimes: [Lifetime]
        let pending: [Pending]

        static let template = PortalTemplate(
            name: "invitations",
            source: #"""
                {{> head}}
                <section class="card" aria-labelledby="new-heading">
                <h2 id="new-heading">New invitation</h2>
                <p>An invitation lets one phone enroll into your vault. Scan its QR code with the VettID app on the phone.</p>
                <form method="post" action="/portal/invitations" id="invite-form" novalidate>
                <input type="hidden" name="csrf" value="{{layout.csrf}}">
                <div class="field">
                <label for="label">Name for the device <span class="optional">(optional)</span></label>
                <input id="label" name="label" type="text" maxlength="100" value="{{label}}"{{#errors.label}} aria-invalid="true" aria-describedby="label-error"{{/errors.label}}>
                {{#errors.label}}<p class="field-error" id="label-error">{{errors.label}}</p>{{/errors.label}}
                </div>
                <div class="field">
                <label for="expires_in_minutes">Valid for</label>
                <select id="expires_in_minutes" name="expires_in_minutes"{{#errors.expiresInMinutes}} aria-invalid="true" aria-describedby="expires_in_minutes-error"{{/errors.expiresInMinutes}}>
                {{#lifetimes}}<option value="{{minutes}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/lifetimes}}
                </select>
                {{#errors.expiresInMinutes}}<p class="field-error" id="expires_in_minutes-error">{{errors.expiresInMinutes}}</p>{{/errors.expiresInMinutes}}
                </div>
                <button type="submit">Create invitation</button>
                </form>
                </section>
                <h2>Pending invitations</h2>
                {{^empty(pending)}}
                <div class="table-wrap">
                <table id="invitations">
                <caption>Invitations that can still be used</caption>
                <thead><tr><th scope="col">Name</th><th scope="col">Created</th><th scope="col">Expires</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
                <tbody>
                {{#pending}}
                <tr data-invitation>
                <td>{{label}}</td>
                <td data-label="Created"><time datetime="{{created.machine}}">{{created.human}}</time></td>
                <td data-label="Expires"><time datetime="{{expires.machine}}">{{expires.human}}</time></td>
                <td class="actions">
                <form method="post" action="/portal/invitations/show"><input type="hidden" name="csrf" value="{{layout.csrf}}"><input type="hidden" name="invitation" value="{{reference}}"><button type="submit" aria-label="Show the QR code of {{label}}, created {{created.human}}">Show QR code</button></form>
                <form method="post" action="/portal/invitations/revoke"><input type="hidden" name="csrf" value="{{layout.csrf}}"><input type="hidden" name="invitation" value="{{reference}}"><button type="submit" class="danger" aria-label="Revoke {{label}}, created {{created.human}}">Revoke</button></form>
                </td>
                </tr>
                {{/pending}}
                </tbody>
                </table>
                </div>
                {{/empty(pending)}}
                {{#empty(pending)}}<p id="no-invitations">No invitation is pending.</p>{{/empty(pending)}}
                {{> foot}}
                """#)
    }

    static let title = "Invite a device"
    /// The lifetimes a member can choose from.
    static let lifetimes: [(minutes: Int, label: String)] = [
        (10, "10 minutes"), (60, "1 hour"), (24 * 60, "1 day"), (7 * 24 * 60, "7 days"),
    ]

    let invitations: InvitationService
    let references: PortalInvitationReference
    let clock: any WallClock
    let invitation: PortalInvitationPage
    let responder: PortalResponder

    /// The list and the form; with field `errors`, answered with 400.
    func show(
        _ context: MemberPortalContext, label: String = "", errors: PortalFormErrors = .init(), selected: Int = 60
    ) async throws -> Response {
        let now = clock.now()
        let pending = try await invitations.list(memberID: context.member.member.id).filter {
            $0.status(at: now) == .pending
        }
        var page = responder.makePage(
            context.visit, title: Self.title, section: .invitations,
            content: Content(
                lifetimes: Self.lifetimes.map {
                    .init(minutes: $0.minutes, label: $0.label, selected: $0.minutes == selected)
                },
                pending: pending.map {
                    .init(
                        reference: references.reference($0.code),
                        label: PortalText.displayable($0.label) ?? "Unnamed device",
                        created: PortalTime($0.createdAt),
                        expires: PortalTime($0.expiresAt))
                }))
        page.content.label = PortalText.displayable(label)
        page.content.errors = errors
        if !errors.isEmpty { page.formError = PortalWords.fieldSummary }
        return responder.page(page, context.visit, status: errors.isEmpty ? .ok : .badRequest)
    }

    func create(_ context: MemberPortalContext) async throws -> Response {
        let label = context.visit.form.trimmed("label") ?? ""
        guard let minutes = context.visit.form["expires_in_minutes"].flatMap(Int.init),
            Self.lifetimes.contains(where: { $0.minutes == minutes })
        else {
            var errors = PortalFormErrors()
            errors[.expiresInMinutes] = "Choose how long the invitation stays valid."
            return try await show(context, label: label, errors: errors)
        }
        do {
            let created = try await invitations.create(
                memberID: context.member.member.id, lifetime: minutes * 60, label: label.isEmpty ? nil : label,
                origin: context.visit.origin)
            return try invitation.render(created, context, status: .created)
        } catch let failure as APIFailure where failure.code == .invalidRequest {
            var errors = PortalFormErrors()
            errors[.label] = "Use at most 100 characters, without control characters."
            return try await show(context, label: label, errors: errors, selected: minutes)
        }
    }

    func revoke(_ context: MemberPortalContext) async throws -> Response {
        _ = try await invitations.revoke(
            code: try await invitation.named(context).code.value, memberID: context.member.member.id,
            origin: context.visit.origin)
        return responder.redirect("/portal/invitations?done=invitation-revoked", context.visit)
    }
}
