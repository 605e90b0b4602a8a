import Testing
import VettIDCrypto

@Suite struct DPoPTargetURITests {
    @Test(arguments: [
        ("https://server.example.com/token", "https://server.example.com/token"),
        ("HTTPS://Server.Example.COM/token", "https://server.example.com/token"),
        ("https://server.example.com:443/token", "https://server.example.com/token"),
        ("http://server.example.com:80/token", "http://server.example.com/token"),
        ("https://server.example.com:8443/token", "https://server.example.com:8443/token"),
        ("https://server.example.com:08443/token", "https://server.example.com:8443/token"),
        ("http://server.example.com:443/token", "http://server.example.com:443/token"),
        ("https://server.example.com:/token", "https://server.example.com/token"),
        ("https://server.example.com", "https://server.example.com/"),
        ("https://server.example.com?q=1", "https://server.example.com/"),
        ("https://server.example.com/a/./b/../c", "https://server.example.com/a/c"),
        ("https://server.example.com/a/b/../../../c", "https://server.example.com/c"),
        ("https://server.example.com/a/..", "https://server.example.com/"),
        ("https://server.example.com/%7euser/%41%2f%2a", "https://server.example.com/~user/A%2F%2A"),
        ("https://server.example.com/a%2e%2E/b", "https://server.example.com/a../b"),
        ("https://server.example.com/%2E%2E/b", "https://server.example.com/b"),
        ("https://server.example.com/Token", "https://server.example.com/Token"),
        ("https://server.example.com/token?a=b#frag", "https://server.example.com/token"),
        ("https://server.example.com/token#frag", "https://server.example.com/token"),
        ("https://[2001:DB8::1]:443/x", "https://[2001:db8::1]/x"),
        ("https://[2001:db8::1]:8080/x", "https://[2001:db8::1]:8080/x"),
    ])
    func normalizes(input: String, expected: String) {
        #expect(DPoPTargetURI.normalize(input) == expected)
    }

    @Test(arguments: [
        "/token", "server.example.com/token", "https:/token", "https://", "https://:443/x",
        "https://user@server.example.com/x", "https://server.example.com:99999/x", "https://server.example.com:8a/x",
        "https://server.example.com/%zz", "https://server.example.com/%4", "https://server.example.com/a b",
        "https://sérver.example/",
        "1https://a.example/", "https://a:b:443/x", "https://[::1/x",
    ])
    func refuses(input: String) {
        #expect(DPoPTargetURI.normalize(input) == nil)
    }

    @Test func stripsQueryAndFragmentForClients() {
        #expect(DPoPTargetURI.stripQueryAndFragment("https://a.example/x?y=1#z") == "https://a.example/x")
        #expect(DPoPTargetURI.stripQueryAndFragment("https://a.example/x#z?y") == "https://a.example/x")
        #expect(DPoPTargetURI.stripQueryAndFragment("https://a.example/x") == "https://a.example/x")
    }
}

/// Found by the `dpop-proof` fuzz target: a percent-encoded letter in the host was lower-cased before it was
/// decoded, so normalizing twice gave another result and `https://%41PI…` did not match `https://api…`.
@Suite struct DPoPTargetURIIdempotenceTests {
    @Test(arguments: [
        ("http://%41/", "http://a/"),
        ("https://%41PI.vettid.dev/auth/me", "https://api.vettid.dev/auth/me"),
        ("https://API.VettID.dev/auth/me", "https://api.vettid.dev/auth/me"),
        ("http://b%c3%a4r.example/", "http://b%C3%A4r.example/"),
    ])
    func hostLettersNormalizeOnceAndTheSameWayDecodedOrNot(uri: String, expected: String) throws {
        let once = try #require(DPoPTargetURI.normalize(uri))
        #expect(once == expected)
        #expect(DPoPTargetURI.normalize(once) == once)
    }
}
