// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
public import Logging
public import OpenAPIRuntime

/// How the SDK reaches a VettID server.
public struct APIClientConfiguration: Sendable {
    /// The server's base URL (scheme `http` or `https` and a host; a path prefix is allowed).
    public let baseURL: URL
    /// The HTTP transport (``DefaultTransport/make()`` unless given).
    public let transport: any ClientTransport
    /// Where request logs go (credentials redacted; see ``LoggingMiddleware``).
    public let logger: Logger
    /// Retries for idempotent requests.
    public let retryPolicy: RetryPolicy
    /// Creates DPoP proofs for authenticated requests; `nil` sends tokens without proofs.
    public let proofProvider: (any DPoPProofProvider)?

    /// Creates a configuration.
    /// - Throws: ``ConfigurationError`` when the base URL has no `http`/`https` scheme or no host.
    public init(
        baseURL: URL,
        transport: (any ClientTransport)? = nil,
        logger: Logger = Logger(label: "dev.vettid.client"),
        retryPolicy: RetryPolicy = .default,
        proofProvider: (any DPoPProofProvider)? = nil
    ) throws {
        try Self.validate(baseURL)
        self.baseURL = baseURL
        self.transport = transport ?? DefaultTransport.make()
        self.logger = logger
        self.retryPolicy = retryPolicy
        self.proofProvider = proofProvider
    }

    /// Creates a configuration from a URL string such as `https://api.example.com`.
    /// - Throws: ``ConfigurationError`` when the string is not an absolute `http`/`https` URL with a host.
    public init(
        baseURL string: String,
        transport: (any ClientTransport)? = nil,
        logger: Logger = Logger(label: "dev.vettid.client"),
        retryPolicy: RetryPolicy = .default,
        proofProvider: (any DPoPProofProvider)? = nil
    ) throws {
        guard let url = URL(string: string) else {
            throw ConfigurationError(code: .invalidBaseURL, message: "'\(string)' is not a URL.")
        }
        try self.init(
            baseURL: url, transport: transport, logger: logger, retryPolicy: retryPolicy, proofProvider: proofProvider)
    }

    static func validate(_ url: URL) throws {
        guard let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http" else {
            throw ConfigurationError(
                code: .invalidBaseURL,
                message: "The base URL '\(url.absoluteString)' needs an http or https scheme."
            )
        }
        guard let host = url.host, !host.isEmpty else {
            throw ConfigurationError(
                code: .invalidBaseURL, message: "The base URL '\(url.absoluteString)' has no host.")
        }
        guard url.query == nil, url.fragment == nil else {
            throw ConfigurationError(
                code: .invalidBaseURL,
                message: "The base URL '\(url.absoluteString)' must not have a query or fragment."
            )
        }
    }
}
