// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import AsyncHTTPClient
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import VettIDCore

/// A minimal browser for the portal's live tests: keeps cookies as a browser would for one origin (honouring
/// `Max-Age=0`), posts forms URL-encoded, never follows redirects (tests look at them), and reads the values the
/// pages carry (CSRF tokens, ids, `data-*` attributes) out of the HTML.
final class PortalBrowser: Sendable {
    struct Page {
        let status: Int
        let headers: HTTPHeaders
        let html: String

        var location: String? { headers.first(name: "location") }

        /// The first form's CSRF token.
        var csrf: String? { first(#"name="csrf" value="([^"]*)""#) }

        /// The first capture of `pattern` in the page.
        func first(_ pattern: String) -> String? { all(pattern).first }

        /// Every first capture of `pattern` in the page.
        func all(_ pattern: String) -> [String] {
            guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
            let range = NSRange(html.startIndex..., in: html)
            return regex.matches(in: html, range: range).compactMap { match in
                Range(match.range(at: 1), in: html).map { String(html[$0]) }
            }
        }

        /// The text of the element with `id` (its HTML entities for &, <, >, " and ' decoded).
        func text(id: String) -> String? {
            first(#"id="\#(id)"[^>]*>([^<]*)<"#).map(Self.unescape)
        }

        static func unescape(_ text: String) -> String {
            text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
                .replacingOccurrences(of: "&amp;", with: "&")
        }
    }

    let baseURL: URL
    /// One client for every test browser, never shut down (like `HTTPClient.shared`, but without following redirects).
    static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()
    var client: HTTPClient { Self.client }
    private let jar = NIOLockedValueBox<[String: String]>([:])
    private let received = NIOLockedValueBox<[String]>([])

    /// Every `Set-Cookie` value received, for checks of the attributes.
    var setCookies: [String] { received.withLockedValue { $0 } }

    init(baseURL: URL) { self.baseURL = baseURL }

    var cookies: [String: String] { jar.withLockedValue { $0 } }

    func setCookie(_ name: String, _ value: String?) { jar.withLockedValue { $0[name] = value } }

    func get(_ path: String, headers: HTTPHeaders = [:]) async throws -> Page {
        try await send(.GET, path, body: nil, headers: headers)
    }

    /// Posts `fields` as `application/x-www-form-urlencoded`.
    func post(_ path: String, _ fields: [(String, String)], headers: HTTPHeaders = [:]) async throws -> Page {
        var headers = headers
        if !headers.contains(name: "content-type") {
            headers.add(name: "content-type", value: "application/x-www-form-urlencoded")
        }
        return try await send(.POST, path, body: Self.encode(fields), headers: headers)
    }

    func send(_ method: HTTPMethod, _ path: String, body: String?, headers: HTTPHeaders) async throws -> Page {
        var request = HTTPClientRequest(url: baseURL.absoluteString + path)
        request.method = method
        request.headers = headers
        request.headers.add(name: "user-agent", value: "PortalBrowser/1 (VettID tests)")
        let cookie = cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
        if !cookie.isEmpty { request.headers.add(name: "cookie", value: cookie) }
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        let response = try await client.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 4 << 20)
        for value in response.headers["set-cookie"] { remember(value) }
        return Page(status: Int(response.status.code), headers: response.headers, html: String(buffer: bytes))
    }

    private func remember(_ header: String) {
        received.withLockedValue { $0.append(header) }
        let attributes = header.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let pair = attributes.first, let equals = pair.firstIndex(of: "=") else { return }
        let name = String(pair[..<equals])
        let value = String(pair[pair.index(after: equals)...])
        setCookie(name, attributes.contains("Max-Age=0") ? nil : value)
    }

    static func encode(_ fields: [(String, String)]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._*")
        return fields.map { name, value in
            let encoded = value.addingPercentEncoding(withAllowedCharacters: allowed)!
            return name + "=" + encoded.replacingOccurrences(of: "%20", with: "+")
        }.joined(separator: "&")
    }
}
