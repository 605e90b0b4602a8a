// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Mustache

/// What a page's own values are: a plain struct the page's template reads by property name, and that template.
protocol PortalPageContent: Sendable {
    /// The page's template (it includes the `head` and `foot` partials of ``PortalLayout``).
    static var template: PortalTemplate { get }
    /// Whether the page loads ``PortalPasskeyScript`` (and gets the Content-Security-Policy that allows it).
    static var usesPasskeyScript: Bool { get }
}

extension PortalPageContent {
    static var usesPasskeyScript: Bool { false }
}

/// One page as its template sees it: the fields every page has, written once, around the page's ``content``.
///
/// Templates name both alike (`{{title}}`, `{{layout.csrf}}`, `{{script}}`, `{{email}}`): ``child(named:)`` answers the shared
/// fields itself and looks every other name up in ``content`` the way swift-mustache reads any struct (by stored
/// property, an optional that is `nil` being no value).
struct PortalPage<Content: PortalPageContent>: Sendable, MustacheParent {
    let title: String
    let layout: PortalLayout
    /// The notice after a redirect (`?done=…`, ``PortalWords/notice(_:)``).
    var notice: String?
    /// The summary above the form: what went wrong, or that a field says what.
    var formError: String?
    /// The page's own values.
    var content: Content

    init(title: String, layout: PortalLayout, notice: String? = nil, formError: String? = nil, content: Content) {
        self.title = title
        self.layout = layout
        self.notice = notice
        self.formError = formError
        self.content = content
    }

    func child(named name: String) -> Any? {
        switch name {
        case "title": title
        case "layout": layout
        case "notice": notice
        case "formError": formError
        case "script": Content.usesPasskeyScript ? PortalPasskeyScript.path : nil
        default:
            Mirror(reflecting: content).children.first { $0.label == name }.flatMap { Self.unwrapped($0.value) }
        }
    }

    /// `value`, or what it wraps when it is an optional (`nil` when that is `nil`).
    private static func unwrapped(_ value: Any) -> Any? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        return mirror.children.first?.value
    }
}

/// A template: its name in the library, and its source.
struct PortalTemplate: Sendable {
    let name: String
    let source: String
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
