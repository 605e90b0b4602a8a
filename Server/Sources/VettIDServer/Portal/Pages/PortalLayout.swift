// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// What every page shows around its content (the `head` and `foot` partials): the navigation for a signed-in
/// member with the current section marked, the sign-out form's CSRF token, the passkey script on the pages that
/// use it (``PortalPageContent/usesPasskeyScript``), and the version.
struct PortalLayout: Sendable {
    enum Section: Sendable { case dashboard, devices, invitations, messaging, passkeys, security, none }

    let signedIn: Bool
    let csrf: String
    let memberEmail: String?
    let version = VettIDServerInfo.version
    let onDashboard: Bool
    let onDevices: Bool
    let onInvitations: Bool
    let onMessaging: Bool
    let onPasskeys: Bool
    let onSecurity: Bool

    init(csrf: String, memberEmail: String?, section: Section) {
        signedIn = memberEmail != nil
        self.csrf = csrf
        self.memberEmail = memberEmail
        onDashboard = section == .dashboard
        onDevices = section == .devices
        onInvitations = section == .invitations
        onMessaging = section == .messaging
        onPasskeys = section == .passkeys
        onSecurity = section == .security
    }

    /// The partial every page starts with: the document head, the site header and navigation, the title, the
    /// notice and the form's error summary.
    static let head = PortalTemplate(
        name: "head",
        source: #"""
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>{{#formError}}Error: {{/formError}}{{title}} · VettID</title>
            <link rel="stylesheet" href="/portal/static/portal.css">
            {{#script}}<script src="{{.}}" defer></script>{{/script}}
            </head>
            <body>
            <a class="skip" href="#main">Skip to content</a>
            <header class="site">
            <a class="brand" href="/portal">VettID</a>
            {{#layout.signedIn}}
            <nav aria-label="Main">
            <ul>
            <li><a href="/portal"{{#layout.onDashboard}} aria-current="page"{{/layout.onDashboard}}>Dashboard</a></li>
            <li><a href="/portal/devices"{{#layout.onDevices}} aria-current="page"{{/layout.onDevices}}>Devices</a></li>
            <li><a href="/portal/invitations"{{#layout.onInvitations}} aria-current="page"{{/layout.onInvitations}}>Invite a device</a></li>
            <li><a href="/portal/messaging"{{#layout.onMessaging}} aria-current="page"{{/layout.onMessaging}}>Messaging</a></li>
            <li><a href="/portal/passkeys"{{#layout.onPasskeys}} aria-current="page"{{/layout.onPasskeys}}>Passkeys</a></li>
            <li><a href="/portal/security"{{#layout.onSecurity}} aria-current="page"{{/layout.onSecurity}}>Security</a></li>
            </ul>
            <form method="post" action="/portal/sign-out" class="sign-out">
            <input type="hidden" name="csrf" value="{{layout.csrf}}">
            <span class="who">{{layout.memberEmail}}</span>
            <button type="submit">Sign out</button>
            </form>
            </nav>
            {{/layout.signedIn}}
            </header>
            <main id="main" tabindex="-1">
            <h1>{{title}}</h1>
            {{#notice}}<p class="notice" role="status">{{notice}}</p>{{/notice}}
            {{#formError}}<p class="form-error" role="alert">{{formError}}</p>{{/formError}}
            """#)

    /// The email field of the registration and sign-in forms: the page's `email`, `emailAutocomplete` and
    /// `errors.email`.
    static let emailField = PortalTemplate(
        name: "email-field",
        source: #"""
            <div class="field">
            <label for="email">Email</label>
            <input id="email" name="email" type="email" autocomplete="{{emailAutocomplete}}" required value="{{email}}"{{#errors.email}} aria-invalid="true" aria-describedby="email-error"{{/errors.email}}>
            {{#errors.email}}<p class="field-error" id="email-error">{{errors.email}}</p>{{/errors.email}}
            </div>
            """#)

    /// The partial every page ends with.
    static let foot = PortalTemplate(
        name: "foot",
        source: #"""
            </main>
            <footer class="site"><p>VettID {{layout.version}}</p></footer>
            </body>
            </html>
            """#)
}
