// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// One upstream the Gate proxy forwards to: `/proxy/<name>/<path>` goes to `baseURL + "/" + path`.
///
/// The API key is added to every forwarded request under `apiKeyHeader`; it never reaches logs (the
/// description redacts it).
public struct GateUpstream: Sendable, Equatable, CustomStringConvertible {
    /// `http(s)://host[:port][/base/path]`, without a trailing slash.
    public var baseURL: String
    /// The header that carries the upstream API key, e.g. `Authorization` or `X-API-Key`.
    public var apiKeyHeader: String?
    /// The upstream API key (a secret).
    public var apiKey: String?

    /// Creates an upstream.
    public init(baseURL: String, apiKeyHeader: String? = nil, apiKey: String? = nil) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.apiKeyHeader = apiKeyHeader
        self.apiKey = apiKey
    }

    public var description: String {
        "GateUpstream(\(baseURL), api key header: \(apiKeyHeader ?? "none"), api key: \(apiKey == nil ? "none" : "<redacted>"))"
    }
}
