// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import VettIDCore

/// The page a portal request ends on when it cannot go on: a refused form, a failure of a service, a busy store.
/// ``PortalResponder/error(_:status:title:message:)`` renders it.
enum PortalErrorPage {
    struct Content: PortalPageContent {
        let message: String

        static let template = PortalTemplate(
            name: "error",
            source: #"""
                {{> head}}
                <p>{{message}}</p>
                <p><a href="/portal">Go to the portal</a></p>
                {{> foot}}
                """#)
    }
}
