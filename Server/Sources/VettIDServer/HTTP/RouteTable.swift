// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import HTTPTypes

/// The server's routes as path templates and the methods each serves, so that a request whose path exists
/// under other methods answers 405 with `Allow` (RFC 9110 §15.5.6) instead of 404.
///
/// Templates use OpenAPI's `{name}` or Hummingbird's `:name` for one segment and `**` for the rest of the path.
public struct RouteTable: Sendable {
    private struct Route: Sendable {
        let segments: [String]
        var methods: [HTTPRequest.Method]
    }
    private var routes: [Route] = []

    /// An empty table.
    public init() {}

    /// Adds `method` for the path `template`.
    public mutating func add(_ method: HTTPRequest.Method, _ template: String) {
        let segments = Self.segments(of: template)
        if let index = routes.firstIndex(where: { $0.segments == segments }) {
            if !routes[index].methods.contains(method) { routes[index].methods.append(method) }
        } else {
            routes.append(Route(segments: segments, methods: [method]))
        }
    }

    /// The methods served at `path`, in registration order without repeats; empty when no route matches it.
    ///
    /// Like the router, a literal segment wins over a parameter and a parameter over `**`, segment by segment from
    /// the left: `/auth/passkeys/authentication` is the literal route's only, even though
    /// `/auth/passkeys/{credential_id}` matches it too.
    public func allowedMethods(for path: String) -> [HTTPRequest.Method] {
        let segments = Self.segments(of: path)
        let matching = routes.filter { Self.matches($0.segments, segments) }
        guard let best = matching.map({ Self.specificity($0.segments) }).max(by: { $0.lexicographicallyPrecedes($1) })
        else { return [] }
        var methods: [HTTPRequest.Method] = []
        for route in matching where Self.specificity(route.segments) == best {
            for method in route.methods where !methods.contains(method) { methods.append(method) }
        }
        return methods
    }

    /// Per segment: 2 for a literal, 1 for a parameter, 0 for `**`.
    private static func specificity(_ template: [String]) -> [Int] {
        template.map { part in
            if part == "**" { return 0 }
            return part.hasPrefix(":") || (part.hasPrefix("{") && part.hasSuffix("}")) ? 1 : 2
        }
    }

    private static func segments(of path: String) -> [String] {
        path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    }

    private static func matches(_ template: [String], _ path: [String]) -> Bool {
        var index = 0
        for part in template {
            if part == "**" { return index < path.count }
            guard index < path.count else { return false }
            let variable = part.hasPrefix(":") || (part.hasPrefix("{") && part.hasSuffix("}"))
            if !variable, part != path[index] { return false }
            index += 1
        }
        return index == path.count
    }
}
