// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import HTTPTypes
import Hummingbird
import VettIDCore

/// `GET /portal` and `POST /portal/vault/deploy`: the member's vault (status, last sync, keys left, the enrolled
/// device) and deploying it, through the API's ``VaultLifecycleService``.
struct PortalDashboardPage: Sendable {
    struct Content: PortalPageContent {
        struct Status: Sendable {
            let value: String
            let label: String
            let explanation: String
        }

        let status: Status
        let lastSync: PortalTime?
        let keysRemaining: Int?
        let deviceSummary: String?
        let canDeploy: Bool
        let needsDevice: Bool

        static let template = PortalTemplate(
            name: "dashboard",
            source: #"""
                {{> head}}
                <section class="card" aria-labelledby="vault-heading">
                <h2 id="vault-heading">Your vault</h2>
                <p class="status status-{{status.value}}" id="vault-status" data-status="{{status.value}}"><strong>{{status.label}}</strong></p>
                <p>{{status.explanation}}</p>
                <dl class="facts">
                <dt>Last sync</dt><dd id="last-sync">{{#lastSync}}<time datetime="{{machine}}">{{human}}</time>{{/lastSync}}{{^lastSync}}Never{{/lastSync}}</dd>
                <dt>Transaction keys remaining</dt><dd id="keys-remaining">{{#keysRemaining}}{{keysRemaining}}{{/keysRemaining}}{{^keysRemaining}}None yet{{/keysRemaining}}</dd>
                {{#deviceSummary}}<dt>Enrolled device</dt><dd id="device-summary">{{deviceSummary}}</dd>{{/deviceSummary}}
                </dl>
                {{#canDeploy}}
                <form method="post" action="/portal/vault/deploy" id="deploy-form">
                <input type="hidden" name="csrf" value="{{layout.csrf}}">
                <button type="submit">Deploy vault</button>
                </form>
                {{/canDeploy}}
                {{#needsDevice}}<p><a class="button" href="/portal/invitations">Invite a device</a> to enroll your phone first.</p>{{/needsDevice}}
                </section>
                {{> foot}}
                """#)
    }

    /// The vault status as ``PortalWords/vaultStatus(_:error:)`` words it.
    typealias Status = Content.Status

    static let title = "Dashboard"

    let lifecycle: VaultLifecycleService
    let responder: PortalResponder

    /// The dashboard; with `formError`, answered with `answer` instead of 200.
    func show(_ context: MemberPortalContext, formError: String? = nil, answer: HTTPResponse.Status = .conflict)
        async throws -> Response
    {
        let status = try await lifecycle.status(userID: context.member.member.id, credentialID: nil)
        let credential = status.credential
        let page = responder.makePage(
            context.visit, title: Self.title, section: .dashboard, formError: formError,
            content: Content(
                status: PortalWords.vaultStatus(status.value.rawValue, error: status.errorMessage),
                lastSync: credential?.lastSyncAt.map(PortalTime.init(unix:)),
                keysRemaining: status.transactionKeysRemaining,
                deviceSummary: credential.map {
                    PortalWords.deviceKind($0.deviceType) + ", enrolled " + PortalTime(unix: $0.enrolledAt).human
                },
                canDeploy: status.value == .enrolled || status.value == .error,
                needsDevice: status.value == .notEnrolled))
        return responder.page(page, context.visit, status: formError == nil ? .ok : answer)
    }

    func deploy(_ context: MemberPortalContext) async throws -> Response {
        do {
            _ = try await lifecycle.deploy(userID: context.member.member.id, origin: context.visit.origin)
            return responder.redirect("/portal?done=deployed", context.visit)
        } catch let failure as APIFailure {
            return try await show(context, formError: PortalWords.describe(failure), answer: failure.status)
        }
    }
}
