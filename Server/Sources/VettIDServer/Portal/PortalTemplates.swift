// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Mustache

/// The portal's Mustache templates, compiled into the binary (an installed `vettid` needs no resource folder) and
/// parsed once. Each page's template lives in the page's file; this is the list. `{{name}}` escapes HTML (`<`, `>`,
/// `&`, `"`, `'`), so member-supplied text (names, labels, a client's `User-Agent`) can only ever be text; the
/// templates never use the unescaped `{{{…}}}` form.
enum PortalTemplates {
    /// Every template: the partials (`head`, `foot`, `email-field`) and each page's.
    static let all: [PortalTemplate] = [
        PortalLayout.head, PortalLayout.foot, PortalLayout.emailField, PortalErrorPage.Content.template,
        PortalRegistrationPage.Content.template, PortalSignInPage.Content.template,
        PortalDashboardPage.Content.template, PortalDevicesPage.Content.template,
        PortalInvitationsPage.Content.template, PortalInvitationPage.Content.template,
        PortalMessagingPage.Content.template, PortalPasskeysPage.Content.template, PortalSecurityPage.Content.template,
    ]

    /// Every template's source by name.
    static let sources: [String: String] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0.source) })

    /// The parsed library. A template that does not parse is a programming error caught by the portal's tests.
    static let library: MustacheLibrary = {
        var library = MustacheLibrary()
        for template in all {
            do { try library.register(template.source, named: template.name) } catch {
                preconditionFailure("portal template \(template.name) does not parse: \(error)")
            }
        }
        return library
    }()

    /// Renders the template `name` with `model`.
    static func render(_ name: String, _ model: Any) -> String {
        guard let html = library.render(model, withTemplate: name) else {
            preconditionFailure("no portal template named \(name)")
        }
        return html
    }
}
