// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import Hummingbird
import VettIDCore

/// `POST /portal/invitations/show`: one pending invitation with its code, link and QR code, the only page that
/// shows a code (the answer to a `POST`, never a `GET` a browser might keep). Also the answer to creating one.
struct PortalInvitationPage: Sendable {
    struct Content: PortalPageContent {
        let code: String
        let link: String
        let label: String?
        let expires: PortalTime
        let qrDataURI: String
        let qrSize: Int

        static let template = PortalTemplate(
            name: "invitation",
            source: #"""
                {{> head}}
                <section class="card invitation" aria-labelledby="scan-heading">
                <h2 id="scan-heading">Scan with the VettID app</h2>
                <img id="invitation-qr" src="{{qrDataURI}}" width="{{qrSize}}" height="{{qrSize}}" alt="QR code of the invitation. If you cannot scan it, type the code below into the app.">
                <dl class="facts">
                <dt>Code</dt><dd><code id="invitation-code">{{code}}</code></dd>
                <dt>Link</dt><dd><code id="invitation-link">{{link}}</code></dd>
                <dt>Valid until</dt><dd id="invitation-expiry"><time datetime="{{expires.machine}}">{{expires.human}}</time></dd>
                {{#label}}<dt>Name</dt><dd>{{label}}</dd>{{/label}}
                </dl>
                <p>Anyone who has this code can enroll a device into your vault until it is used or expires. Do not share it.</p>
                </section>
                <p><a href="/portal/invitations">Back to invitations</a> · <a href="/portal/devices">See enrolled devices</a></p>
                {{> foot}}
                """#)
    }

    static let title = "Invitation"

    let invitations: InvitationService
    let references: PortalInvitationReference
    let origin: PublicOrigin
    let clock: any WallClock
    let responder: PortalResponder

    /// The invitation the form names, while it is pending (409 `invitation_<status>` otherwise).
    func show(_ context: MemberPortalContext) async throws -> Response {
        let invitation = try await named(context)
        let status = invitation.status(at: clock.now())
        guard status == .pending else {
            throw APIFailure(.conflict, status.conflictCode, "the invitation is \(status.rawValue)")
        }
        return try render(invitation, context)
    }

    /// The member's invitation the form's `invitation` reference names.
    func named(_ context: MemberPortalContext) async throws -> Invitation {
        let all = try await invitations.list(memberID: context.member.member.id)
        guard let invitation = references.find(context.visit.form["invitation"], in: all) else {
            throw InvitationService.notFound
        }
        return invitation
    }

    /// The page for `invitation`.
    func render(_ invitation: Invitation, _ context: MemberPortalContext, status: HTTPResponse.Status = .ok) throws
        -> Response
    {
        let link = InvitationPayload.make(code: invitation.code, origin: origin.url)
        let qr = try QRCode(encoding: link)
        let (scale, margin) = (4, 4)
        let png = qr.png(scale: scale, margin: margin)
        let page = PortalPage(
            title: Self.title, layout: responder.layout(context.visit, .invitations),
            content: Content(
                code: invitation.code.value, link: link, label: PortalText.displayable(invitation.label),
                expires: PortalTime(invitation.expiresAt),
                qrDataURI: "data:image/png;base64," + Data(png).base64EncodedString(),
                qrSize: (qr.width + 2 * margin) * scale))
        return responder.page(page, context.visit, status: status)
    }
}
