// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
import VettIDCore
import VettIDTestSupport

@testable import VettIDServer

/// The byte-level parsers on every authenticated and proxied request: the `Authorization` header and the Gate's
/// path split with its dot-segment check.
@Suite struct RequestParsingTests {
    @Test func authorizationSchemesAreCaseInsensitiveAndCredentialsTrimmed() throws {
        let dpop = try #require(AuthorizationHeader("DPoP  abc.def.ghi \t"))
        #expect(dpop.scheme == .dpop)
        #expect(dpop.credentials == "abc.def.ghi")
        #expect(AuthorizationHeader("dpop x")?.scheme == .dpop)
        #expect(AuthorizationHeader("BEARER x")?.scheme == .bearer)
        #expect(AuthorizationHeader("Bearer\tx") == nil)
        let basic = try #require(AuthorizationHeader("Basic dXNlcjpwYXNz"))
        #expect(basic.scheme == nil)
        #expect(basic.credentials == "dXNlcjpwYXNz")
    }

    @Test func authorizationWithoutCredentialsIsRefused() {
        #expect(AuthorizationHeader("DPoP") == nil)
        #expect(AuthorizationHeader("DPoP ") == nil)
        #expect(AuthorizationHeader("DPoP \t ") == nil)
        #expect(AuthorizationHeader("") == nil)
        // A leading space leaves an empty scheme, which is none the server accepts.
        #expect(AuthorizationHeader(" DPoP x")?.scheme == nil)
        // Scheme lookalikes: a longer name, a non-ASCII letter, a byte that only matches with its case bit set.
        #expect(AuthorizationHeader("DPoPs x")?.scheme == nil)
        #expect(AuthorizationHeader("DPöP x")?.scheme == nil)
        #expect(AuthorizationHeader("D\u{10}o\u{10} x")?.scheme == nil)
    }

    @Test func splitSeparatesTheUpstreamNameFromTheRawRemainder() throws {
        var (name, remainder) = try GateProxy.split("/proxy/echo/a/b%20c?x=1&y=%2e%2e")
        #expect(name == "echo")
        #expect(remainder == "/a/b%20c?x=1&y=%2e%2e")
        (name, remainder) = try GateProxy.split("/proxy/echo?q=1")
        #expect(name == "echo")
        #expect(remainder == "?q=1")
        (name, remainder) = try GateProxy.split("/proxy/echo")
        #expect(name == "echo")
        #expect(remainder == "")
        #expect(throws: APIFailure.self) { try GateProxy.split("/other/echo") }
    }

    @Test(arguments: [
        "/proxy/echo/..", "/proxy/echo/a/../b", "/proxy/echo/.", "/proxy/echo/%2e%2e/x", "/proxy/echo/%2E.",
        "/proxy/echo/a/%2e", "/proxy/echo/a%2fb", "/proxy/echo/a%2Fb", "/proxy/echo/a%5cb", "/proxy/echo/a\\b",
        "/proxy/echo/x/..?q",
    ])
    func splitRefusesDotSegmentsAndEncodedSeparators(path: String) {
        #expect(throws: APIFailure.self) { try GateProxy.split(path) }
    }

    @Test(arguments: [
        "/proxy/echo/...", "/proxy/echo/.a", "/proxy/echo/%252e%252e", "/proxy/echo/a?b=/../", "/proxy/echo//",
    ])
    func splitAcceptsSegmentsThatOnlyLookLikeDots(path: String) throws {
        #expect(try GateProxy.split(path).name == "echo")
    }

    /// The byte scan against the decoding it replaced (Foundation's `removingPercentEncoding`, then the same
    /// rule) on 20,000 segments drawn from the bytes that matter, wherever that decoding succeeds.
    @Test func segmentCheckAgreesWithPercentDecoding() {
        let pieces = [".", "%2e", "%2E", "%2f", "%5C", "/", "a", "%41", "%", "%2", "\\", "%25", "e"]
        var generator = SplitMix64(seed: 0x5eed)
        var compared = 0
        for _ in 0..<20_000 {
            let count = Int(generator.next() % 4) + 1
            let segment = (0..<count).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined()
            if segment.contains("/") { continue }
            guard let decoded = segment.removingPercentEncoding else {
                // Invalid escapes: the byte scan still refuses an encoded separator or dot-only segment in them.
                continue
            }
            let expected = decoded == "." || decoded == ".." || decoded.contains("/") || decoded.contains("\\")
            #expect(ProxiedPathSegment.isUnsafe(Substring(segment).utf8) == expected, "\(segment)")
            compared += 1
        }
        #expect(compared > 5_000)
    }
}
