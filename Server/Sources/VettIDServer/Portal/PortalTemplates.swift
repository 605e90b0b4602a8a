// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Mustache

/// The portal's Mustache templates, compiled into the binary (an installed `vettid` needs no resource folder) and
/// parsed once. `{{name}}` escapes HTML (`<`, `>`, `&`, `"`, `'`), so member-supplied text (names, labels, a
/// client's `User-Agent`) can only ever be text; the templates never use the unescaped `{{{…}}}` form.
enum PortalTemplates {
    /// Every template by name: the page templates and the `head` and `foot` partials they include.
    static let sources: [String: String] = layout.merging(account) { $1 }.merging(vault) { $1 }.merging(activity) {
        $1
    }

    /// The parsed library. A template that does not parse is a programming error caught by the portal's tests.
    static let library: MustacheLibrary = {
        var library = MustacheLibrary()
        for (name, source) in sources {
            do { try library.register(source, named: name) } catch {
                preconditionFailure("portal template \(name) does not parse: \(error)")
            }
        }
        return library
    }()

    /// Renders the page `name` with `model`.
    static func render(_ name: String, _ model: Any) -> String {
        guard let html = library.render(model, withTemplate: name) else {
            preconditionFailure("no portal template named \(name)")
        }
        return html
    }
}
