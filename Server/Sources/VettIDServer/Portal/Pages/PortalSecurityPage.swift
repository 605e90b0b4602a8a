// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Hummingbird

/// `GET /portal/security`: what happened to the member's account, newest first (``SecurityEventRepository``).
struct PortalSecurityPage: Sendable {
    struct Content: PortalPageContent {
        struct Event: Sendable {
            let kind: String
            let label: String
            let at: PortalTime
            let ip: String?
            let client: String?
            let detail: String?
        }

        let events: [Event]

        static let template = PortalTemplate(
            name: "security",
            source: #"""
                {{> head}}
                <p>What happened to your account, newest first. If you do not recognise something, revoke your device and its messaging tokens, then sign out.</p>
                {{^empty(events)}}
                <div class="table-wrap">
                <table id="security-events">
                <caption>Security events</caption>
                <thead><tr><th scope="col">When</th><th scope="col">What</th><th scope="col">From</th></tr></thead>
                <tbody>
                {{#events}}
                <tr data-kind="{{kind}}">
                <td data-label="When"><time datetime="{{at.machine}}">{{at.human}}</time></td>
                <td data-label="What">{{label}}{{#detail}}<br><span class="detail">{{detail}}</span>{{/detail}}</td>
                <td data-label="From">{{#ip}}{{ip}}{{/ip}}{{^ip}}Unknown address{{/ip}}{{#client}}<br><span class="detail">{{client}}</span>{{/client}}</td>
                </tr>
                {{/events}}
                </tbody>
                </table>
                </div>
                {{/empty(events)}}
                {{#empty(events)}}<p>Nothing yet.</p>{{/empty(events)}}
                {{> foot}}
                """#)
    }

    static let title = "Security events"

    let securityEvents: SecurityEventRepository
    let responder: PortalResponder

    func show(_ context: MemberPortalContext) async throws -> Response {
        let events = try await securityEvents.recent(memberID: context.member.member.id)
        let page = PortalPage(
            title: Self.title, layout: responder.layout(context.visit, .security),
            content: Content(
                events: events.map {
                    .init(
                        kind: $0.kind.rawValue, label: PortalWords.event($0.kind), at: PortalTime($0.occurredAt),
                        ip: PortalText.displayable($0.origin.ip), client: PortalText.displayable($0.origin.client),
                        detail: PortalText.displayable($0.detail))
                }))
        return responder.page(page, context.visit)
    }
}
