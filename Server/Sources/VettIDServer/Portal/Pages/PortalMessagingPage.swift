// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import Hummingbird
import VettIDCore
import VettIDMessaging

/// `GET /portal/messaging` and `POST /portal/messaging/revoke`: the member's NATS account and active tokens, and
/// revoking one, through the API's ``NATSCredentialService``.
struct PortalMessagingPage: Sendable {
    struct Content: PortalPageContent {
        struct Account: Sendable {
            let ownerSpace: String
            let messageSpace: String
            let created: PortalTime
            let endpoint: String?
        }

        struct Token: Sendable {
            let id: String
            let client: String
            let device: String?
            let issued: PortalTime
            let expires: PortalTime
        }

        let account: Account?
        let tokens: [Token]

        static let template = PortalTemplate(
            name: "messaging",
            source: #"""
                {{> head}}
                <section class="card" aria-labelledby="account-heading">
                <h2 id="account-heading">NATS account</h2>
                {{#account}}
                <dl class="facts" id="nats-account">
                <dt>Owner space</dt><dd><code>{{ownerSpace}}</code></dd>
                <dt>Message space</dt><dd><code>{{messageSpace}}</code></dd>
                <dt>Created</dt><dd><time datetime="{{created.machine}}">{{created.human}}</time></dd>
                {{#endpoint}}<dt>Endpoint</dt><dd><code>{{endpoint}}</code></dd>{{/endpoint}}
                </dl>
                {{/account}}
                {{^account}}<p id="nats-account">Your devices have not set up messaging yet. The app does this after it enrolls.</p>{{/account}}
                </section>
                <h2>Active tokens</h2>
                {{^empty(tokens)}}
                <div class="table-wrap">
                <table id="nats-tokens">
                <caption>Tokens that can connect to your vault's messaging</caption>
                <thead><tr><th scope="col">Client</th><th scope="col">Issued</th><th scope="col">Expires</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
                <tbody>
                {{#tokens}}
                <tr data-token-id="{{id}}">
                <td><strong>{{client}}</strong>{{#device}}<br><span class="detail">{{device}}</span>{{/device}}</td>
                <td data-label="Issued"><time datetime="{{issued.machine}}">{{issued.human}}</time></td>
                <td data-label="Expires"><time datetime="{{expires.machine}}">{{expires.human}}</time></td>
                <td><form method="post" action="/portal/messaging/revoke"><input type="hidden" name="csrf" value="{{layout.csrf}}"><input type="hidden" name="token_id" value="{{id}}"><button type="submit" class="danger" aria-label="Revoke the {{client}} token issued {{issued.human}}">Revoke</button></form></td>
                </tr>
                {{/tokens}}
                </tbody>
                </table>
                </div>
                {{/empty(tokens)}}
                {{#empty(tokens)}}<p id="no-tokens">No token is active.</p>{{/empty(tokens)}}
                {{> foot}}
                """#)
    }

    static let title = "Messaging"

    let nats: NATSCredentialService
    let responder: PortalResponder

    /// The account and tokens; with `formError`, answered with `answer` instead of 200.
    func show(_ context: MemberPortalContext, formError: String? = nil, answer: HTTPResponse.Status = .conflict)
        async throws -> Response
    {
        let status = try await nats.status(userID: context.member.member.id)
        let page = responder.makePage(
            context.visit, title: Self.title, section: .messaging, formError: formError,
            content: Content(
                account: status.account.map {
                    .init(
                        ownerSpace: $0.ownerSpace, messageSpace: $0.messageSpace,
                        created: PortalTime(unix: $0.createdAt), endpoint: status.endpoint)
                },
                tokens: status.activeTokens.map {
                    .init(
                        id: $0.tokenID, client: $0.clientType.rawValue.capitalized, device: $0.deviceID,
                        issued: PortalTime(unix: $0.issuedAt), expires: PortalTime(unix: $0.expiresAt))
                }))
        return responder.page(page, context.visit, status: formError == nil ? .ok : answer)
    }

    func revoke(_ context: MemberPortalContext) async throws -> Response {
        guard let tokenID = context.visit.form.trimmed("token_id"), tokenID.utf8.count <= 128 else {
            return try await show(context, formError: "Choose a token to revoke.", answer: .badRequest)
        }
        do {
            _ = try await nats.revoke(userID: context.member.member.id, tokenID: tokenID, origin: context.visit.origin)
            return responder.redirect("/portal/messaging?done=token-revoked", context.visit)
        } catch let failure as APIFailure {
            return try await show(context, formError: PortalWords.describe(failure), answer: failure.status)
        }
    }
}
