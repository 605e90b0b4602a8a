// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import OpenAPIRuntime
import VettIDAPI
import VettIDCore

extension APIHandler {
    func createInvitation(_ input: Operations.CreateInvitation.Input) async throws -> Operations.CreateInvitation.Output
    {
        let member = try await authenticate().member
        var request: Components.Schemas.CreateInvitationRequest?
        if case .json(let body) = input.body { request = body }
        let invitation = try await invitations.create(
            memberID: member.id, lifetime: request?.expiresIn, label: request?.label,
            origin: try self.request.securityOrigin)
        return .created(.init(body: .json(api(invitation))))
    }

    func listInvitations(_ input: Operations.ListInvitations.Input) async throws -> Operations.ListInvitations.Output {
        let member = try await authenticate().member
        let list = try await invitations.list(memberID: member.id)
        return .ok(.init(body: .json(.init(invitations: list.map(api)))))
    }

    func revokeInvitation(_ input: Operations.RevokeInvitation.Input) async throws -> Operations.RevokeInvitation.Output
    {
        let member = try await authenticate().member
        let invitation = try await invitations.revoke(
            code: input.path.code, memberID: member.id, origin: try request.securityOrigin)
        return .ok(.init(body: .json(api(invitation))))
    }

    func getInvitationQRCode(_ input: Operations.GetInvitationQRCode.Input) async throws
        -> Operations.GetInvitationQRCode.Output
    {
        let member = try await authenticate().member
        let invitation = try await invitations.find(code: input.path.code, memberID: member.id)
        let qr = try QRCode(encoding: InvitationPayload.make(code: invitation.code, origin: components.origin.url))
        let wantsText =
            input.headers.accept.contains { $0.contentType == .plainText }
            && !input.headers.accept.contains { $0.contentType == .png }
        if wantsText { return .ok(.init(body: .plainText(HTTPBody(qr.terminalText())))) }
        return .ok(.init(body: .png(HTTPBody(qr.png()))))
    }

    var invitations: InvitationService {
        InvitationService(repository: components.invitations, clock: components.clock)
    }

    func api(_ invitation: Invitation) -> Components.Schemas.Invitation {
        .init(
            code: invitation.code.value,
            status: .init(rawValue: invitation.status(at: components.clock.now()).rawValue) ?? .expired,
            label: invitation.label,
            createdAt: invitation.createdAt,
            expiresAt: invitation.expiresAt,
            usedAt: invitation.usedAt,
            revokedAt: invitation.revokedAt,
            qrPayload: InvitationPayload.make(code: invitation.code, origin: components.origin.url)
        )
    }
}
