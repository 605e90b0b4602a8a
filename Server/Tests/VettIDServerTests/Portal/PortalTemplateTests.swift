// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Mustache
import Testing
import VettIDCore

@testable import VettIDServer

/// Every template parses and renders, and text from members or clients is escaped wherever it is rendered.
struct PortalTemplateTests {
    static let hostile = #"<script>alert("x")</script>' onmouseover='x"#
    let layout = PortalLayout(csrf: "token", memberEmail: Self.hostile, section: .devices)

    @Test func everyTemplateParses() throws {
        for (name, source) in PortalTemplates.sources {
            _ = try MustacheTemplate(string: source)
            #expect(PortalTemplates.library.getTemplate(named: name) != nil, "\(name)")
        }
        #expect(Set(PortalTemplates.sources.keys).isSuperset(of: ["head", "foot", "error", "register", "sign-in"]))
    }

    @Test func memberAndClientTextIsEscapedEverywhere() {
        let time = PortalTime(Date(timeIntervalSince1970: 1_800_000_000))
        var pages: [(String, Any)] = []
        var registration = PortalPage(
            title: Self.hostile, layout: layout, content: PortalRegistrationPage.Content(email: Self.hostile))
        registration.content.firstName = Self.hostile
        registration.content.errors[.email] = Self.hostile
        registration.content.passwordReasons = [Self.hostile]
        registration.content.errors[.password] = Self.hostile
        pages.append(("register", registration))
        var signIn = PortalPage(
            title: Self.hostile, layout: layout, content: PortalSignInPage.Content(email: Self.hostile))
        signIn.content.errors[.password] = Self.hostile
        pages.append(("sign-in", signIn))
        pages.append(
            (
                "devices",
                PortalPage(
                    title: "Devices", layout: layout,
                    content: PortalDevicesPage.Content(
                        devices: [
                            .init(
                                id: Self.hostile, kind: Self.hostile, assurance: Self.hostile, enrolled: time,
                                lastUsed: time,
                                state: "active", stateLabel: Self.hostile, isActive: true)
                        ]))
            ))
        pages.append(
            (
                "invitations",
                PortalPage(
                    title: "Invite a device", layout: layout,
                    content: PortalInvitationsPage.Content(
                        label: Self.hostile,
                        lifetimes: [.init(minutes: 10, label: Self.hostile, selected: true)],
                        pending: [.init(reference: Self.hostile, label: Self.hostile, created: time, expires: time)]))
            ))
        pages.append(
            (
                "security",
                PortalPage(
                    title: "Security events", layout: layout,
                    content: PortalSecurityPage.Content(
                        events: [
                            .init(
                                kind: "login", label: Self.hostile, at: time, ip: Self.hostile, client: Self.hostile,
                                detail: Self.hostile)
                        ],
                        accesses: [
                            .init(
                                handler: Self.hostile, device: Self.hostile, outcome: Self.hostile,
                                outcomeLabel: Self.hostile, at: time)
                        ]))
            ))
        pages.append(
            (
                "messaging",
                PortalPage(
                    title: "Messaging", layout: layout,
                    content: PortalMessagingPage.Content(
                        account: .init(
                            ownerSpace: Self.hostile, messageSpace: Self.hostile, created: time,
                            endpoint: Self.hostile),
                        tokens: [
                            .init(
                                id: Self.hostile, client: Self.hostile, device: Self.hostile, issued: time,
                                expires: time)
                        ]))
            ))
        pages.append(
            (
                "passkeys",
                PortalPage(
                    title: "Passkeys", layout: layout,
                    content: PortalPasskeysPage.Content(
                        passkeys: [
                            .init(
                                id: Self.hostile, name: Self.hostile, created: time, lastUsed: time, sync: Self.hostile,
                                syncLabel: Self.hostile)
                        ], name: Self.hostile))
            ))
        for (name, model) in pages {
            let html = PortalTemplates.render(name, model)
            #expect(!html.contains("<script>"), "\(name)")
            #expect(!html.contains("' onmouseover='"), "\(name)")
            #expect(
                html.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; onmouseover=&#39;x"), "\(name)")
        }
    }

    /// swift-mustache escapes per Character: a quote with a combining mark is one Character and would pass raw.
    @Test func aQuoteWithACombiningMarkCannotEndAnAttribute() {
        let quoteWithMark = String(decoding: [0x22, 0xCC, 0x81] as [UInt8], as: UTF8.self)  // " + U+0301
        let hostile = "x" + quoteWithMark + " autofocus onfocus=" + quoteWithMark + "alert(1)"
        let page = PortalPage(
            title: "t", layout: layout, content: PortalRegistrationPage.Content(email: PortalText.displayable(hostile)))
        let html = PortalTemplates.render("register", page)
        #expect(!html.contains(quoteWithMark))
        #expect(html.contains(#"value="x&quot; autofocus onfocus=&quot;alert(1)""#))
        #expect(PortalText.displayable("Ada's phone é") == "Ada's phone é", "ordinary text is unchanged")
        let openWithMark = String(decoding: [0x3C, 0xCC, 0x81, 0x62, 0x3E] as [UInt8], as: UTF8.self)  // <́b>
        #expect(PortalText.displayable(openWithMark) == "<b>")
    }

    @Test func pagesNeverCarryInlineScriptOrStyle() {
        #expect(
            !PortalTemplates.render(
                "error", PortalPage(title: "t", layout: layout, content: PortalErrorPage.Content(message: "m"))
            ).contains("<script"), "a page without a ceremony loads no script")
        // The one script element: the passkey script's fixed path (never text from a request), on the pages that
        // ask for it.
        let scriptElement = #"{{#script}}<script src="{{.}}" defer></script>{{/script}}"#
        #expect(PortalTemplates.sources["head"]?.contains(scriptElement) == true)
        for (name, source) in PortalTemplates.sources {
            #expect(!source.replacingOccurrences(of: scriptElement, with: "").contains("<script"), "\(name)")
            #expect(!source.contains(" onclick=") && !source.contains(" onsubmit="), "\(name): no inline handler")
            #expect(!source.contains("style="), "\(name): the CSP allows no inline style")
            #expect(!source.contains("{{{"), "\(name): every value is escaped")
            #expect(!source.contains("{{&"), "\(name): every value is escaped")
        }
    }

    @Test func fieldErrorsAreCarriedByFieldAndShownNextToIt() throws {
        var page = PortalPage(title: "t", layout: layout, content: PortalRegistrationPage.Content())
        page.content.errors[.lastName] = "too long"
        #expect(page.content.errors.all == [PortalFieldError(field: .lastName, message: "too long")])
        let html = PortalTemplates.render("register", page)
        #expect(html.contains(#"<p class="field-error" id="last_name-error">too long</p>"#))
        #expect(!html.contains("first_name-error"))
        page.content.errors[.lastName] = nil
        #expect(page.content.errors.isEmpty)
    }

    @Test func aRefusedNameSaysWhichPart() {
        let last = #expect(throws: MemberName.InvalidPart.self) { try MemberName(checking: "Ada", "a\u{1}b") }
        #expect(last?.part == .last)
        #expect(last?.failure.code == .invalidRequest)
        let first = #expect(throws: MemberName.InvalidPart.self) {
            try MemberName(checking: String(repeating: "x", count: 101), "a\u{1}b")
        }
        #expect(first?.part == .first, "the first part is checked first")
    }

    @Test func timesAreUTCToTheMinute() {
        let time = PortalTime(Date(timeIntervalSince1970: 1_800_000_000))
        #expect(time.machine == "2027-01-15T08:00:00Z")
        #expect(time.human == "2027-01-15 08:00 UTC")
    }
}
