// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The JSON of the CONNECT line (nats-server client.go `ClientOpts`).

/// The fields the client sends in `CONNECT`.
///
/// Secrets (`pass`, `auth_token`, `sig`) live here only long enough to be encoded; ``description`` omits them.
public struct NATSConnectOptions: Encodable, Sendable, Equatable, CustomStringConvertible {
    /// Ask for `+OK` after every operation.
    public var verbose: Bool = false
    /// Ask the server for strict subject checks.
    public var pedantic: Bool = false
    /// Tell the server the client requires TLS.
    public var tlsRequired: Bool = false
    /// User JWT.
    public var jwt: String?
    /// Public NKey (NKey auth without JWT).
    public var nkey: String?
    /// Base64 RawURL signature of the nonce.
    public var signature: String?
    /// Token.
    public var authToken: String?
    /// User name.
    public var user: String?
    /// Password.
    public var pass: String?
    /// Connection name.
    public var name: String?
    /// Client language.
    public var lang: String = "swift"
    /// Client version.
    public var version: String = "0.1.0"
    /// Protocol level (1 = accepts async INFO).
    public var `protocol`: Int = 1
    /// Whether our own publishes are delivered to our subscriptions.
    public var echo: Bool = true
    /// Whether the client understands headers.
    public var headers: Bool = true
    /// Whether the server should answer requests without responders with a 503 status.
    public var noResponders: Bool = true

    /// Creates default options.
    public init() {}

    private enum CodingKeys: String, CodingKey {
        case verbose, pedantic
        case tlsRequired = "tls_required"
        case jwt, nkey
        case signature = "sig"
        case authToken = "auth_token"
        case user, pass, name, lang, version, `protocol`, echo, headers
        case noResponders = "no_responders"
    }

    /// The options without any credential values.
    public var description: String {
        "CONNECT(name: \(name ?? "-"), verbose: \(verbose), pedantic: \(pedantic), echo: \(echo), headers: \(headers), "
            + "jwt: \(jwt == nil ? "no" : "yes"), nkey: \(nkey ?? "-"), token: \(authToken == nil ? "no" : "yes"), "
            + "user: \(user ?? "-"))"
    }
}
