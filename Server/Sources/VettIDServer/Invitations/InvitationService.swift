// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
import HTTPTypes
public import VettIDCore

/// Creating, listing, revoking and rendering a member's device invitations.
public struct InvitationService: Sendable {
    /// Bounds on invitations.
    public struct Limits: Sendable {
        public var defaultLifetime: Int = 86_400
        public var lifetimeRange: ClosedRange<Int> = 60...604_800
        public var maximumLabelLength: Int = 100
        public var maximumPending: Int = 20

        public init() {}
    }

    let repository: InvitationRepository
    let clock: any WallClock
    let limits: Limits
    var events: SecurityEventRepository { SecurityEventRepository(store: repository.store) }

    public init(repository: InvitationRepository, clock: any WallClock, limits: Limits = Limits()) {
        self.repository = repository
        self.clock = clock
        self.limits = limits
    }

    /// Creates an invitation for `memberID`; refuses bad lifetimes or labels and more than `maximumPending`
    /// pending invitations at once.
    public func create(memberID: UUID, lifetime: Int?, label: String?, origin: SecurityEvent.Origin) async throws
        -> Invitation
    {
        let lifetime = lifetime ?? limits.defaultLifetime
        guard limits.lifetimeRange.contains(lifetime) else {
            throw APIFailure.invalidRequest(
                "expires_in must be between \(limits.lifetimeRange.lowerBound) and \(limits.lifetimeRange.upperBound) seconds"
            )
        }
        let label = try BoundedText.validated(label, field: "label", maximumLength: limits.maximumLabelLength)
        let now = clock.now()
        let pending = try await repository.list(memberID: memberID).filter { $0.status(at: now) == .pending }
        guard pending.count < limits.maximumPending else {
            throw APIFailure(
                .conflict, .tooManyInvitations,
                "at most \(limits.maximumPending) invitations may be pending; revoke one first"
            )
        }
        let invitation = try await repository.create(
            memberID: memberID, label: label?.isEmpty == true ? nil : label,
            expiresAt: now.addingTimeInterval(TimeInterval(lifetime)), now: now
        )
        try await events.record(
            SecurityEvent(
                memberID: memberID, kind: .invitationCreated, occurredAt: now, origin: origin, detail: invitation.label)
        )
        return invitation
    }

    /// The member's invitations, newest first.
    public func list(memberID: UUID) async throws -> [Invitation] {
        try await repository.list(memberID: memberID)
    }

    /// Revokes a pending invitation; 404 if the member has none with this code, 409 if it is no longer pending.
    public func revoke(code text: String, memberID: UUID, origin: SecurityEvent.Origin) async throws -> Invitation {
        let code = try Self.parse(text)
        guard let (invitation, revoked) = try await repository.revoke(code, memberID: memberID, now: clock.now()) else {
            throw Self.notFound
        }
        guard revoked else {
            let status = invitation.status(at: clock.now())
            throw APIFailure(.conflict, status.conflictCode, "the invitation is already \(status.rawValue)")
        }
        try await events.record(
            SecurityEvent(
                memberID: memberID, kind: .invitationRevoked, occurredAt: clock.now(), origin: origin,
                detail: invitation.label))
        return invitation
    }

    /// The member's invitation with this code, for rendering its QR code.
    public func find(code text: String, memberID: UUID) async throws -> Invitation {
        let code = try Self.parse(text)
        guard let invitation = try await repository.find(code), invitation.memberID == memberID else {
            throw Self.notFound
        }
        return invitation
    }

    static let notFound = APIFailure(.notFound, .invitationNotFound, "no such invitation")

    static func parse(_ text: String) throws -> InvitationCode {
        guard let code = InvitationCode(parsing: text) else { throw notFound }
        return code
    }
}
