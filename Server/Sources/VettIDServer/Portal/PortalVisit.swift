// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// One portal request as the page handlers see it: who is signed in, the form (for a `POST`), what its CSRF token
/// must be bound to, and the cookies the answer sets. It travels in the request context (``PortalContext``).
struct PortalVisit: Sendable {
    let info: RequestInfo
    /// The query (only `done` is ever read, and only as a key into fixed texts).
    let query: [String: String]
    let member: AuthService.Authenticated?
    /// The pre-session CSRF cookie's value (from the request, or fresh).
    let anonymousCSRF: String
    /// `Set-Cookie` values for the answer.
    var cookies: [String]
    var form = PortalForm()

    init(
        info: RequestInfo, query: [String: String], member: AuthService.Authenticated?, anonymousCSRF: String,
        cookies: [String] = []
    ) {
        self.info = info
        self.query = query
        self.member = member
        self.anonymousCSRF = anonymousCSRF
        self.cookies = cookies
    }

    var binding: PortalCSRF.Binding { member.map { .session($0.session.id) } ?? .anonymous(anonymousCSRF) }
    var origin: SecurityEvent.Origin { info.securityOrigin }

    /// The query of `path`.
    static func query(_ path: String?) -> [String: String] {
        guard let path, let mark = path.firstIndex(of: "?") else { return [:] }
        var query: [String: String] = [:]
        for pair in path[path.index(after: mark)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { query[String(parts[0])] = String(parts[1]) }
        }
        return query
    }
}
