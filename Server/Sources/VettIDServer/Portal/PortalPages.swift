// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import VettIDCore

// The values the portal's templates render. Plain structs: swift-mustache reads their stored properties by name.

/// What every page shows around its content.
struct PortalLayout: Sendable {
    enum Section: Sendable { case dashboard, devices, invitations, messaging, security, none }

    let signedIn: Bool
    let csrf: String
    let memberEmail: String?
    let version = VettIDServerInfo.version
    let onDashboard: Bool
    let onDevices: Bool
    let onInvitations: Bool
    let onMessaging: Bool
    let onSecurity: Bool

    init(csrf: String, memberEmail: String?, section: Section) {
        signedIn = memberEmail != nil
        self.csrf = csrf
        self.memberEmail = memberEmail
        onDashboard = section == .dashboard
        onDevices = section == .devices
        onInvitations = section == .invitations
        onMessaging = section == .messaging
        onSecurity = section == .security
    }
}

/// A time, for a `<time>` element: machine-readable and as a person reads it (UTC, to the minute).
struct PortalTime: Sendable {
    let machine: String
    let human: String

    init(_ date: Date) {
        machine = date.formatted(Date.ISO8601FormatStyle())
        human = String(machine.prefix(10)) + " " + String(machine.dropFirst(11).prefix(5)) + " UTC"
    }

    init(unix seconds: Int64) { self.init(Date(timeIntervalSince1970: TimeInterval(seconds))) }
}

/// Messages shown next to the fields of a form; `nil` where a field is fine.
struct PortalFieldErrors: Sendable {
    var email: String?
    var password: String?
    var firstName: String?
    var lastName: String?
    var label: String?
    var expiresInMinutes: String?

    var isEmpty: Bool {
        [email, password, firstName, lastName, label, expiresInMinutes].allSatisfy { $0 == nil }
    }
}

struct PortalAccountPage: Sendable {
    let title: String
    let layout: PortalLayout
    var notice: String?
    var formError: String?
    var email = ""
    var firstName = ""
    var lastName = ""
    var errors = PortalFieldErrors()
    var passwordReasons: [String] = []
    var minimumLength = PasswordPolicy.standard.minimumLength
}

struct PortalDashboardPage: Sendable {
    struct Status: Sendable {
        let value: String
        let label: String
        let explanation: String
    }

    let title = "Dashboard"
    let layout: PortalLayout
    var notice: String?
    var formError: String?
    let status: Status
    let lastSync: PortalTime?
    let keysRemaining: Int?
    let deviceSummary: String?
    let canDeploy: Bool
    let needsDevice: Bool
}

struct PortalDevicesPage: Sendable {
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

    let title = "Devices"
    let layout: PortalLayout
    var notice: String?
    var formError: String?
    let devices: [Device]
}

struct PortalInvitationsPage: Sendable {
    struct Pending: Sendable {
        /// ``PortalInvitationReference``: never the code itself.
        let reference: String
        let label: String
        let created: PortalTime
        let expires: PortalTime
    }

    struct Lifetime: Sendable {
        let minutes: Int
        let label: String
        let selected: Bool
    }

    let title = "Invite a device"
    let layout: PortalLayout
    var notice: String?
    var formError: String?
    var label = ""
    var errors = PortalFieldErrors()
    let lifetimes: [Lifetime]
    let pending: [Pending]
}

struct PortalInvitationPage: Sendable {
    let title = "Invitation"
    let layout: PortalLayout
    var notice: String?
    var formError: String?
    let code: String
    let link: String
    let label: String?
    let expires: PortalTime
    let qrDataURI: String
    let qrSize: Int
}

struct PortalMessagingPage: Sendable {
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

    let title = "Messaging"
    let layout: PortalLayout
    var notice: String?
    var formError: String?
    let account: Account?
    let tokens: [Token]
}

struct PortalSecurityPage: Sendable {
    struct Event: Sendable {
        let kind: String
        let label: String
        let at: PortalTime
        let ip: String?
        let client: String?
        let detail: String?
    }

    let title = "Security events"
    let layout: PortalLayout
    var notice: String?
    var formError: String?
    let events: [Event]
}

struct PortalErrorPage: Sendable {
    let title: String
    let layout: PortalLayout
    var notice: String?
    var formError: String?
    let message: String
}
