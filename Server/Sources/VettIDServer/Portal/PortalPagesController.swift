// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import Hummingbird
import VettIDCrypto
import VettIDMessaging

/// The portal's pages: each reads what it shows from the same services the API uses (so rate limits, the password
/// policy, the invitation limits and the security events are the API's), and answers a successful `POST` with a
/// redirect.
struct PortalPagesController: Sendable {
    let auth: AuthService
    let lifecycle: VaultLifecycleService
    let nats: NATSCredentialService
    let invitations: InvitationService
    let securityEvents: SecurityEventRepository
    let origin: PublicOrigin
    let passwordPolicy: PasswordPolicy
    let clock: any WallClock
    let responder: PortalResponder
    let cookies: PortalSessionCookie
    let csrf: PortalCSRF
    let signInLifetime: Int
    let references: PortalInvitationReference
    /// Signs and opens the known-browser cookie (``PortalSessionCookie/knownBrowserName``).
    let knownBrowsers: PortalSessionCookie
    /// How long a browser stays known after a sign-in.
    static let knownBrowserLifetime = 180 * 86_400

    // MARK: Account

    func register(_ visit: PortalVisit) -> Response {
        var page = PortalAccountPage(title: "Create your account", layout: layout(visit))
        page.minimumLength = passwordPolicy.minimumLength
        return responder.page("register", page, visit)
    }

    func submitRegistration(_ visit: PortalVisit) async throws -> Response {
        let form = visit.form
        var page = PortalAccountPage(title: "Create your account", layout: layout(visit))
        page.email = PortalText.displayable(form["email"] ?? "")
        page.firstName = PortalText.displayable(form["first_name"] ?? "")
        page.lastName = PortalText.displayable(form["last_name"] ?? "")
        page.minimumLength = passwordPolicy.minimumLength
        do {
            let name = try MemberName(first: form.trimmed("first_name"), last: form.trimmed("last_name"))
            _ = try await auth.register(
                email: (form["email"] ?? "").trimmingCharacters(in: .whitespaces), password: form["password"] ?? "",
                name: name,
                origin: visit.origin, logger: visit.info.logger)
            return responder.redirect("/portal/sign-in?done=registered", visit)
        } catch let failure as APIFailure {
            switch failure.code {
            case .invalidEmail, .emailTaken: page.errors.email = PortalWords.describe(failure)
            case .weakPassword:
                page.errors.password = PortalWords.describe(failure)
                page.passwordReasons = failure.reasons ?? []
            case .invalidRequest where failure.message.contains("first_name"):
                page.errors.firstName = "Use at most 100 characters, without control characters."
            case .invalidRequest where failure.message.contains("last_name"):
                page.errors.lastName = "Use at most 100 characters, without control characters."
            default: page.formError = PortalWords.describe(failure)
            }
            page.formError = page.formError ?? PortalWords.fieldSummary
            return responder.page("register", page, visit, status: failure.status).retrying(after: failure)
        }
    }

    func signIn(_ visit: PortalVisit) -> Response {
        var page = PortalAccountPage(title: "Sign in", layout: layout(visit))
        page.notice = PortalWords.notice(visit.query["done"])
        return responder.page("sign-in", page, visit)
    }

    func submitSignIn(_ visit: PortalVisit) async throws -> Response {
        var page = PortalAccountPage(title: "Sign in", layout: layout(visit))
        page.email = PortalText.displayable(visit.form["email"] ?? "")
        do {
            let issued = try await auth.login(
                email: (visit.form["email"] ?? "").trimmingCharacters(in: .whitespaces),
                password: visit.form["password"] ?? "",
                dpopJKT: nil, origin: visit.origin, sessionLifetime: .seconds(signInLifetime),
                knownClientOf: knownMember(visit), logger: visit.info.logger)
            var visit = visit
            let expiresAt = clock.now().addingTimeInterval(TimeInterval(signInLifetime))
            visit.cookies.append(
                cookies.setting(
                    cookies.name, cookies.value(id: issued.session.id, expiresAt: expiresAt),
                    maxAge: signInLifetime))
            visit.cookies.append(cookies.setting(cookies.csrfName, "", maxAge: 0))
            let knownUntil = clock.now().addingTimeInterval(TimeInterval(Self.knownBrowserLifetime))
            visit.cookies.append(
                cookies.setting(
                    cookies.knownBrowserName, knownBrowsers.value(id: issued.member.id, expiresAt: knownUntil),
                    maxAge: Self.knownBrowserLifetime))
            return responder.redirect("/portal", visit)
        } catch let failure as APIFailure {
            if failure.code == .invalidCredentials {
                page.errors.password = PortalWords.describe(failure)
                page.formError = PortalWords.fieldSummary
            } else {
                page.formError = PortalWords.describe(failure)
            }
            return responder.page("sign-in", page, visit, status: failure.status).retrying(after: failure)
        }
    }

    /// The member this browser signed in as before, from an authentic, unexpired known-browser cookie (exactly one).
    private func knownMember(_ visit: PortalVisit) -> UUID? {
        let values = visit.info.cookies(cookies.knownBrowserName)
        guard values.count == 1 else { return nil }
        return knownBrowsers.open(values[0], now: clock.now())?.id
    }

    func signOut(_ context: MemberPortalContext) async throws -> Response {
        var visit = context.visit
        try await auth.logout(context.member, origin: visit.origin, logger: visit.info.logger)
        visit.cookies.append(cookies.setting(cookies.name, "", maxAge: 0))
        return responder.redirect("/portal/sign-in?done=signed-out", visit)
    }

    // MARK: Vault

    func dashboard(_ context: MemberPortalContext, formError: String? = nil, answer: HTTPResponse.Status = .conflict)
        async throws
        -> Response
    {
        let visit = context.visit
        let userID = context.member.member.id
        let status = try await lifecycle.status(userID: userID, credentialID: nil)
        let credential = status.credential
        var page = PortalDashboardPage(
            layout: layout(visit, .dashboard),
            status: PortalWords.vaultStatus(status.value.rawValue, error: status.errorMessage),
            lastSync: credential?.lastSyncAt.map(PortalTime.init(unix:)),
            keysRemaining: status.transactionKeysRemaining,
            deviceSummary: credential.map {
                PortalWords.deviceKind($0.deviceType) + ", enrolled " + PortalTime(unix: $0.enrolledAt).human
            },
            canDeploy: status.value == .enrolled || status.value == .error,
            needsDevice: status.value == .notEnrolled)
        page.notice = PortalWords.notice(visit.query["done"])
        page.formError = formError
        return responder.page("dashboard", page, visit, status: formError == nil ? .ok : answer)
    }

    func deploy(_ context: MemberPortalContext) async throws -> Response {
        let visit = context.visit
        do {
            _ = try await lifecycle.deploy(userID: context.member.member.id, origin: visit.origin)
            return responder.redirect("/portal?done=deployed", visit)
        } catch let failure as APIFailure {
            return try await dashboard(context, formError: PortalWords.describe(failure), answer: failure.status)
        }
    }

    func devices(_ context: MemberPortalContext, formError: String? = nil, answer: HTTPResponse.Status = .conflict)
        async throws
        -> Response
    {
        let visit = context.visit
        let credentials = try await lifecycle.credentials(userID: context.member.member.id)
        var page = PortalDevicesPage(
            layout: layout(visit, .devices),
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
            })
        page.notice = PortalWords.notice(visit.query["done"])
        page.formError = formError
        return responder.page("devices", page, visit, status: formError == nil ? .ok : answer)
    }

    func revokeDevice(_ context: MemberPortalContext) async throws -> Response {
        let visit = context.visit
        guard let credentialID = visit.form.trimmed("credential_id"), credentialID.utf8.count <= 64 else {
            return try await devices(context, formError: "Choose a device to revoke.", answer: .badRequest)
        }
        do {
            _ = try await lifecycle.revoke(
                userID: context.member.member.id, credentialID: credentialID, origin: visit.origin)
            return responder.redirect("/portal/devices?done=device-revoked", visit)
        } catch let failure as APIFailure {
            return try await devices(context, formError: PortalWords.describe(failure), answer: failure.status)
        }
    }

    // MARK: Invitations

    static let lifetimes: [(minutes: Int, label: String)] = [
        (10, "10 minutes"), (60, "1 hour"), (24 * 60, "1 day"), (7 * 24 * 60, "7 days"),
    ]

    func invitations(
        _ context: MemberPortalContext, label: String = "", errors: PortalFieldErrors = .init(), selected: Int = 60
    )
        async throws -> Response
    {
        let visit = context.visit
        let now = clock.now()
        let pending = try await invitations.list(memberID: context.member.member.id).filter {
            $0.status(at: now) == .pending
        }
        var page = PortalInvitationsPage(
            layout: layout(visit, .invitations),
            lifetimes: Self.lifetimes.map {
                .init(minutes: $0.minutes, label: $0.label, selected: $0.minutes == selected)
            },
            pending: pending.map {
                .init(
                    reference: references.reference($0.code),
                    label: PortalText.displayable($0.label) ?? "Unnamed device",
                    created: PortalTime($0.createdAt),
                    expires: PortalTime($0.expiresAt))
            })
        page.label = PortalText.displayable(label)
        page.errors = errors
        if !errors.isEmpty { page.formError = PortalWords.fieldSummary }
        page.notice = PortalWords.notice(visit.query["done"])
        return responder.page("invitations", page, visit, status: errors.isEmpty ? .ok : .badRequest)
    }

    func createInvitation(_ context: MemberPortalContext) async throws -> Response {
        let visit = context.visit
        let label = visit.form.trimmed("label") ?? ""
        guard let minutes = visit.form["expires_in_minutes"].flatMap(Int.init),
            Self.lifetimes.contains(where: { $0.minutes == minutes })
        else {
            var errors = PortalFieldErrors()
            errors.expiresInMinutes = "Choose how long the invitation stays valid."
            return try await invitations(context, label: label, errors: errors)
        }
        do {
            let invitation = try await invitations.create(
                memberID: context.member.member.id, lifetime: minutes * 60, label: label.isEmpty ? nil : label,
                origin: visit.origin)
            return try invitationPage(invitation, visit, status: .created)
        } catch let failure as APIFailure where failure.code == .invalidRequest {
            var errors = PortalFieldErrors()
            errors.label = "Use at most 100 characters, without control characters."
            return try await invitations(context, label: label, errors: errors, selected: minutes)
        }
    }

    func showInvitation(_ context: MemberPortalContext) async throws -> Response {
        let visit = context.visit
        let invitation = try await namedInvitation(context)
        let status = invitation.status(at: clock.now())
        guard status == .pending else {
            throw APIFailure(
                .conflict, .init(rawValue: "invitation_\(status.rawValue)"), "the invitation is \(status.rawValue)")
        }
        return try invitationPage(invitation, visit)
    }

    func revokeInvitation(_ context: MemberPortalContext) async throws -> Response {
        let visit = context.visit
        _ = try await invitations.revoke(
            code: try await namedInvitation(context).code.value, memberID: context.member.member.id,
            origin: visit.origin)
        return responder.redirect("/portal/invitations?done=invitation-revoked", visit)
    }

    /// The member's invitation the form's `invitation` reference names.
    private func namedInvitation(_ context: MemberPortalContext) async throws -> Invitation {
        let visit = context.visit
        let all = try await invitations.list(memberID: context.member.member.id)
        guard let invitation = references.find(visit.form["invitation"], in: all) else {
            throw APIFailure(.notFound, .init(rawValue: "invitation_not_found"), "no such invitation")
        }
        return invitation
    }

    private func invitationPage(_ invitation: Invitation, _ visit: PortalVisit, status: HTTPResponse.Status = .ok)
        throws -> Response
    {
        let link = InvitationPayload.make(code: invitation.code, origin: origin.url)
        let qr = try QRCode(encoding: link)
        let (scale, margin) = (4, 4)
        let png = qr.png(scale: scale, margin: margin)
        let page = PortalInvitationPage(
            layout: layout(visit, .invitations), code: invitation.code.value, link: link,
            label: PortalText.displayable(invitation.label),
            expires: PortalTime(invitation.expiresAt),
            qrDataURI: "data:image/png;base64," + Data(png).base64EncodedString(),
            qrSize: (qr.width + 2 * margin) * scale)
        return responder.page("invitation", page, visit, status: status)
    }

    // MARK: Messaging and security

    func messaging(_ context: MemberPortalContext, formError: String? = nil, answer: HTTPResponse.Status = .conflict)
        async throws
        -> Response
    {
        let visit = context.visit
        let status = try await nats.status(userID: context.member.member.id)
        var page = PortalMessagingPage(
            layout: layout(visit, .messaging),
            account: status.account.map {
                .init(
                    ownerSpace: $0.ownerSpace, messageSpace: $0.messageSpace, created: PortalTime(unix: $0.createdAt),
                    endpoint: status.endpoint)
            },
            tokens: status.activeTokens.map {
                .init(
                    id: $0.tokenID,
                    client: $0.clientType.rawValue.capitalized,
                    device: $0.deviceID, issued: PortalTime(unix: $0.issuedAt), expires: PortalTime(unix: $0.expiresAt))
            })
        page.notice = PortalWords.notice(visit.query["done"])
        page.formError = formError
        return responder.page("messaging", page, visit, status: formError == nil ? .ok : answer)
    }

    func revokeToken(_ context: MemberPortalContext) async throws -> Response {
        let visit = context.visit
        guard let tokenID = visit.form.trimmed("token_id"), tokenID.utf8.count <= 128 else {
            return try await messaging(context, formError: "Choose a token to revoke.", answer: .badRequest)
        }
        do {
            _ = try await nats.revoke(userID: context.member.member.id, tokenID: tokenID, origin: visit.origin)
            return responder.redirect("/portal/messaging?done=token-revoked", visit)
        } catch let failure as APIFailure {
            return try await messaging(context, formError: PortalWords.describe(failure), answer: failure.status)
        }
    }

    func security(_ context: MemberPortalContext) async throws -> Response {
        let visit = context.visit
        let events = try await securityEvents.recent(memberID: context.member.member.id)
        let page = PortalSecurityPage(
            layout: layout(visit, .security),
            events: events.map {
                .init(
                    kind: $0.kind.rawValue, label: PortalWords.event($0.kind), at: PortalTime($0.occurredAt),
                    ip: PortalText.displayable($0.origin.ip), client: PortalText.displayable($0.origin.client),
                    detail: PortalText.displayable($0.detail))
            })
        return responder.page("security", page, visit)
    }

    // MARK: Helpers

    private func layout(_ visit: PortalVisit, _ section: PortalLayout.Section = .none) -> PortalLayout {
        responder.layout(visit, section)
    }
}
