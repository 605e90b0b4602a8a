import Foundation
import Mustache
import Testing

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
        var account = PortalAccountPage(title: Self.hostile, layout: layout)
        account.email = Self.hostile
        account.firstName = Self.hostile
        account.errors.email = Self.hostile
        account.passwordReasons = [Self.hostile]
        account.errors.password = Self.hostile
        pages.append(("register", account))
        pages.append(("sign-in", account))
        pages.append(
            (
                "devices",
                PortalDevicesPage(
                    layout: layout,
                    devices: [
                        .init(
                            id: Self.hostile, kind: Self.hostile, assurance: Self.hostile, enrolled: time,
                            lastUsed: time,
                            state: "active", stateLabel: Self.hostile, isActive: true)
                    ])
            ))
        pages.append(
            (
                "invitations",
                PortalInvitationsPage(
                    layout: layout, label: Self.hostile,
                    lifetimes: [.init(minutes: 10, label: Self.hostile, selected: true)],
                    pending: [.init(code: Self.hostile, label: Self.hostile, created: time, expires: time)])
            ))
        pages.append(
            (
                "security",
                PortalSecurityPage(
                    layout: layout,
                    events: [
                        .init(
                            kind: "login", label: Self.hostile, at: time, ip: Self.hostile, client: Self.hostile,
                            detail: Self.hostile)
                    ])
            ))
        pages.append(
            (
                "messaging",
                PortalMessagingPage(
                    layout: layout,
                    account: .init(
                        ownerSpace: Self.hostile, messageSpace: Self.hostile, created: time, endpoint: Self.hostile),
                    tokens: [
                        .init(id: Self.hostile, client: Self.hostile, device: Self.hostile, issued: time, expires: time)
                    ])
            ))
        for (name, model) in pages {
            let html = PortalTemplates.render(name, model)
            #expect(!html.contains("<script>"), "\(name)")
            #expect(!html.contains("' onmouseover='"), "\(name)")
            #expect(
                html.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; onmouseover=&#39;x"), "\(name)")
        }
    }

    @Test func pagesNeverCarryInlineScriptOrStyle() {
        for (name, source) in PortalTemplates.sources {
            #expect(!source.contains("<script"), "\(name)")
            #expect(!source.contains("style="), "\(name): the CSP allows no inline style")
            #expect(!source.contains("{{{"), "\(name): every value is escaped")
            #expect(!source.contains("{{&"), "\(name): every value is escaped")
        }
    }

    @Test func timesAreUTCToTheMinute() {
        let time = PortalTime(Date(timeIntervalSince1970: 1_800_000_000))
        #expect(time.machine == "2027-01-15T08:00:00Z")
        #expect(time.human == "2027-01-15 08:00 UTC")
    }
}
