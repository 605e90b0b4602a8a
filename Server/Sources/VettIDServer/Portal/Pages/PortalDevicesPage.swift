// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import HTTPTypes
import Hummingbird
import VettIDCore

/// `GET /portal/devices` and `POST /portal/devices/revoke`: the devices enrolled in the member's vault, newest
/// first, and revoking one, through the API's ``VaultLifecycleService``.
struct PortalDevicesPage: Sendable {
    struct Content: PortalPageContent {
        struct Device: Sendable {
            let id: String
            let kind: String
            let assurance: String
            let enrolled: PortalTime
            let lastUsed: PortalTime?
            let state: String
            let stateLabel: String
            let isActive: Bool
        }

        let devices: [Device]

        static let template = PortalTemplate(
            name: "devices",
            source: #"""
                {{> head}}
                <p>The device enrolled in your vault authenticates to it with a key that never leaves the device. Revoking it stops it at once; enroll a new one with an invitation.</p>
                {{^empty(devices)}}
                <div class="table-wrap">
                <table id="devices">
                <caption>Enrolled devices, newest first</caption>
                <thead><tr><th scope="col">Device</th><th scope="col">Enrolled</th><th scope="col">Last used</th><th scope="col">State</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
                <tbody>
                {{#devices}}
                <tr data-credential-id="{{id}}" data-state="{{state}}">
                <td><strong>{{kind}}</strong><br><span class="detail">{{assurance}}</span></td>
                <td data-label="Enrolled"><time datetime="{{enrolled.machine}}">{{enrolled.human}}</time></td>
                <td data-label="Last used">{{#lastUsed}}<time datetime="{{machine}}">{{human}}</time>{{/lastUsed}}{{^lastUsed}}Not yet{{/lastUsed}}</td>
                <td data-label="State">{{stateLabel}}</td>
                <td>{{#isActive}}<form method="post" action="/portal/devices/revoke"><input type="hidden" name="csrf" value="{{layout.csrf}}"><input type="hidden" name="credential_id" value="{{id}}"><button type="submit" class="danger" aria-label="Revoke {{kind}} enrolled {{enrolled.human}}">Revoke</button></form>{{/isActive}}</td>
                </tr>
                {{/devices}}
                </tbody>
                </table>
                </div>
                {{/empty(devices)}}
                {{#empty(devices)}}<p id="no-devices">No device is enrolled yet. <a href="/portal/invitations">Invite a device</a>.</p>{{/empty(devices)}}
                {{> foot}}
                """#)
    }

    static let title = "Devices"

    let lifecycle: VaultLifecycleService
    let responder: PortalResponder

    /// The device list; with `formError`, answered with `answer` instead of 200.
    func show(_ context: MemberPortalContext, formError: String? = nil, answer: HTTPResponse.Status = .conflict)
        async throws -> Response
    {
        let credentials = try await lifecycle.credentials(userID: context.member.member.id)
        let page = responder.makePage(
            context.visit, title: Self.title, section: .devices, formError: formError,
            content: Content(
                devices: credentials.map { credential in
                    let revoked = credential.revokedAt != nil
                    return .init(
                        id: credential.credentialID, kind: PortalWords.deviceKind(credential.deviceType),
                        assurance: PortalWords.assurance(
                            securityLevel: credential.securityLevel, attestation: credential.attestationFormat),
                        enrolled: PortalTime(unix: credential.enrolledAt),
                        lastUsed: credential.lastAuthAt.map(PortalTime.init(unix:)),
                        state: revoked ? "revoked" : "active",
                        stateLabel: revoked
                            ? "Revoked" : credential.lockedAt != nil ? "Locked (too many wrong passwords)" : "Active",
                        isActive: !revoked)
                }))
        return responder.page(page, context.visit, status: formError == nil ? .ok : answer)
    }

    func revoke(_ context: MemberPortalContext) async throws -> Response {
        guard let credentialID = context.visit.form.trimmed("credential_id"), credentialID.utf8.count <= 64 else {
            return try await show(context, formError: "Choose a device to revoke.", answer: .badRequest)
        }
        do {
            _ = try await lifecycle.revoke(
                userID: context.member.member.id, credentialID: credentialID, origin: context.visit.origin)
            return responder.redirect("/portal/devices?done=device-revoked", context.visit)
        } catch let failure as APIFailure {
            return try await show(context, formError: PortalWords.describe(failure), answer: failure.status)
        }
    }
}
