// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Hummingbird

/// `GET /portal/security`: what happened to the member's account, newest first (``SecurityEventRepository``), and
/// the vault access log: every handler call in the member's vault, which device, when and how it ended
/// (``VaultAccessLogRepository``).
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

        struct Access: Sendable {
            let handler: String
            let device: String
            let outcome: String
            let outcomeLabel: String
            let at: PortalTime
        }

        let events: [Event]
        let accesses: [Access]

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
                <h2 id="vault-access-heading">Vault access</h2>
                <p>Every request your devices made to your vault, newest first.</p>
                {{^empty(accesses)}}
                <div class="table-wrap">
                <table id="vault-access" aria-labelledby="vault-access-heading">
                <caption>Vault access log</caption>
                <thead><tr><th scope="col">When</th><th scope="col">Request</th><th scope="col">Device</th><th scope="col">Outcome</th></tr></thead>
                <tbody>
                {{#accesses}}
                <tr data-handler="{{handler}}" data-outcome="{{outcome}}">
                <td data-label="When"><time datetime="{{at.machine}}">{{at.human}}</time></td>
                <td data-label="Request"><code>{{handler}}</code></td>
                <td data-label="Device">{{device}}</td>
                <td data-label="Outcome">{{outcomeLabel}}</td>
                </tr>
                {{/accesses}}
                </tbody>
                </table>
                </div>
                {{/empty(accesses)}}
                {{#empty(accesses)}}<p>No vault requests yet.</p>{{/empty(accesses)}}
                {{> foot}}
                """#)
    }

    static let title = "Security events"

    let securityEvents: SecurityEventRepository
    let accessLog: VaultAccessLogRepository
    let lifecycle: VaultLifecycleService
    let responder: PortalResponder

    func show(_ context: MemberPortalContext) async throws -> Response {
        let memberID = context.member.member.id
        let events = try await securityEvents.recent(memberID: memberID)
        let accesses = try await accessLog.recent(memberID: memberID.key)
        let devices = Dictionary(
            try await lifecycle.credentials(userID: memberID).map { ($0.deviceJKT, $0) },
            uniquingKeysWith: { a, _ in a })
        let page = PortalPage(
            title: Self.title, layout: responder.layout(context.visit, .security),
            content: Content(
                events: events.map {
                    .init(
                        kind: $0.kind.rawValue, label: PortalWords.event($0.kind), at: PortalTime($0.occurredAt),
                        ip: PortalText.displayable($0.origin.ip), client: PortalText.displayable($0.origin.client),
                        detail: PortalText.displayable($0.detail))
                },
                accesses: accesses.map { entry in
                    .init(
                        handler: PortalText.displayable(entry.handlerID),
                        device: Self.device(entry.deviceThumbprint, devices),
                        outcome: PortalText.displayable(entry.outcome),
                        outcomeLabel: entry.outcome == "ok"
                            ? "Answered" : "Refused: \(PortalText.displayable(entry.outcome))",
                        at: PortalTime(entry.occurredAt))
                }))
        return responder.page(page, context.visit)
    }

    /// The device of an access: its kind and enrolment date when it is one of the member's, else the start of its key
    /// thumbprint; a plaintext request names no device.
    static func device(_ thumbprint: String?, _ devices: [String: VaultCredential]) -> String {
        guard let thumbprint else { return "No device (plaintext request)" }
        guard let credential = devices[thumbprint] else { return "Device key \(thumbprint.prefix(10))…" }
        return
            "\(PortalWords.deviceKind(credential.deviceType)), enrolled \(PortalTime(unix: credential.enrolledAt).human)"
    }
}
