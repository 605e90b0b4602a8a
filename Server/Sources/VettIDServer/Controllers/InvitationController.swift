// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import OpenAPIRuntime
import VettIDAPI
import VettIDCore

/// A member's device invitations (docs/protocol.md §3): create, list, revoke, and the QR code of one.
struct InvitationController: Sendable {
    let invitations: InvitationService
    let members: MemberAuthenticator
    let origin: PublicOrigin
    let clock: any WallClock

    func createInvitation(_ input: Operations.CreateInvitation.Input) async throws -> Operations.CreateInvitation.Output
    {
        let info = try RequestInfo.required
        let member = try await members.authenticate(info).member
        var request: Components.Schemas.CreateInvitationRequest?
        if case .json(let body) = input.body { request = body }
        let invitation = try await invitations.create(
            memberID: member.id, lifetime: request?.expiresIn, label: request?.label, origin: info.securityOrigin)
        return .created(.init(body: .json(api(invitation))))
    }

    func listInvitations(_ input: Operations.ListInvitations.Input) async throws -> Operations.ListInvitations.Output {
        let member = try await members.authenticate(try RequestInfo.required).member
        let list = try await invitations.list(memberID: member.id)
        return .ok(.init(body: .json(.init(invitations: list.map(api)))))
    }

    func revokeInvitation(_ input: Operations.RevokeInvitation.Input) async throws -> Operations.RevokeInvitation.Output
    {
        let info = try RequestInfo.required
        let member = try await members.authenticate(info).member
        let invitation = try await invitations.revoke(
            code: input.path.code, memberID: member.id, origin: info.securityOrigin)
        return .ok(.init(body: .json(api(invitation))))
    }

    func getInvitationQRCode(_ input: Operations.GetInvitationQRCode.Input) async throws
        -> Operations.GetInvitationQRCode.Output
    {
        let member = try await members.authenticate(try RequestInfo.required).member
        let invitation = try await invitations.find(code: input.path.code, memberID: member.id)
        let qr = try QRCode(encoding: InvitationPayload.make(code: invitation.code, origin: origin.url))
        let wantsText =
            input.headers.accept.contains { $0.contentType == .plainText }
            && !input.headers.accept.contains { $0.contentType == .png }
        if wantsText { return .ok(.init(body: .plainText(HTTPBody(qr.terminalText())))) }
        return .ok(.init(body: .png(HTTPBody(qr.png()))))
    }

    private func api(_ invitation: Invitation) -> Components.Schemas.Invitation {
        .init(
            code: invitation.code.value,
            status: .init(rawValue: invitation.status(at: clock.now()).rawValue) ?? .expired,
            label: invitation.label,
            createdAt: invitation.createdAt,
            expiresAt: invitation.expiresAt,
            usedAt: invitation.usedAt,
            revokedAt: invitation.revokedAt,
            qrPayload: InvitationPayload.make(code: invitation.code, origin: origin.url)
        )
    }
}
